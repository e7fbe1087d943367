/**
 * The source model of a Java file: compilation unit -> types -> methods -> statements,
 * each with its exact source text and where it is. Every stage that reads Java (the
 * test-integrity check today; prompt context, agent tools and fixers later) shares it.
 */

/** Offsets are UTF-16 indexes into the file text, `end` exclusive; lines are 1-based. */
export interface SourceRange {
  start: number;
  end: number;
  startLine: number;
  endLine: number;
}

export interface JavaAnnotation {
  /** Simple name as written last: `Test` for `@org.junit.jupiter.api.Test`. */
  name: string;
  /** The name as written: `org.junit.jupiter.api.Test` or `Test`. */
  qualifiedName: string;
  /** The whole annotation, arguments included: `@DisabledIf("isCi")`. */
  text: string;
  range: SourceRange;
}

export interface JavaParameter {
  name: string;
  /** The type as written, without annotations: `List<String>`, `int...`. */
  type: string;
  text: string;
}

/** One statement of a block, as written. */
export interface JavaStatement {
  /**
   * What kind of statement: `expression`, `return`, `try`, `if`, `for`, `while`, `throw`,
   * `block`, `local-variable-declaration`, `local-class`, ... (the grammar's rule name).
   */
  kind: string;
  text: string;
  range: SourceRange;
}

export interface JavaBlock {
  range: SourceRange;
  text: string;
  statements: JavaStatement[];
}

export interface JavaMethod {
  kind: 'method' | 'constructor';
  name: string;
  annotations: JavaAnnotation[];
  /** Keyword modifiers in order: `public`, `static`, `default`, ... */
  modifiers: string[];
  parameters: JavaParameter[];
  /** `name(Type1,Type2)`: tells overloads apart. */
  signature: string;
  /** The whole declaration, annotations included. */
  range: SourceRange;
  text: string;
  /** Absent for abstract and interface methods without a body. */
  body?: JavaBlock;
  /** Binary name of the declaring type: `com.acme.FooTest$Nested`. */
  declaringType: string;
}

export type JavaTypeKind = 'class' | 'interface' | 'enum' | 'record' | 'annotation';

export interface JavaType {
  kind: JavaTypeKind;
  name: string;
  /** `com.acme.Outer$Inner`, as a class file, a stack trace or a Surefire report names it. */
  binaryName: string;
  /** The class it extends, as written (`TestCase`, `AbstractRepositoryTest<User>`). */
  superclass?: string;
  annotations: JavaAnnotation[];
  modifiers: string[];
  range: SourceRange;
  methods: JavaMethod[];
  /** Member types declared directly inside this one. */
  types: JavaType[];
}

export interface JavaComment {
  text: string;
  range: SourceRange;
}

export interface JavaSourceFile {
  text: string;
  packageName?: string;
  /** As written after `import`: `static org.junit.jupiter.api.Assertions.*`, `java.util.List`. */
  imports: string[];
  /** Top-level types. */
  types: JavaType[];
  comments: JavaComment[];
}

export interface JavaParseError {
  message: string;
  line?: number;
  column?: number;
}

export type JavaParseResult = { ok: true; file: JavaSourceFile } | { ok: false; error: JavaParseError };

/** A method call, `name(args)`, wherever it appears. */
export interface JavaMethodCall {
  name: string;
  /** What the call is made on, as written: `Assertions`, `assertThat(x)`, `this`; absent for a bare call. */
  qualifier?: string;
  /** Each argument's source text. */
  arguments: string[];
  /** From the start of the expression chain to this call's closing parenthesis. */
  text: string;
  range: SourceRange;
  /** The whole chain this call is part of: `assertThat(x).isEqualTo(3)` for both calls in it. */
  chain: { text: string; range: SourceRange };
  /** True for the first call of its chain (`assertThat` in `Assertions.assertThat(x).isEqualTo(3)`). */
  firstInChain: boolean;
}

export interface JavaCatchClause {
  /** Caught types as written: `IOException`, `java.lang.Throwable`. */
  types: string[];
  parameter: string;
  body: JavaBlock;
}

export interface JavaTryStatement {
  range: SourceRange;
  text: string;
  withResources: boolean;
  block: JavaBlock;
  catches: JavaCatchClause[];
  finally?: JavaBlock;
}

export interface JavaReturnStatement {
  range: SourceRange;
  text: string;
  /** The returned expression's text, absent for `return;`. */
  expression?: string;
}

/** What the queries search in: a whole file, a type, a method, a block or a statement of it. */
export type JavaScope = JavaSourceFile | JavaType | JavaMethod | JavaBlock | JavaStatement;
