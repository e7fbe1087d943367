/**
 * The shapes of what mvnx knows about the user's code beyond its sources: class names and
 * members from the JDK and the jars a file compiles against. Declared here, where the
 * default index implements them; plugins/contracts.ts re-exports them (type only) as part
 * of the plugin API, since a fixer or a plugin may pass its own `TypeIndex`.
 */

/** Which classpath a source file compiles against. */
export type SourceScope = 'main' | 'test';

export interface LibraryMember {
  kind: 'method' | 'field' | 'constructor';
  name: string;
  /** Parameter types as javap prints them (qualified, generic), empty for a field. */
  parameters: string[];
  /** The field's type or the method's return type; absent for a constructor. */
  type?: string;
  modifiers: string[];
  /** The line as javap prints it, without the trailing `;`: `public boolean add(E)`. */
  signature: string;
}

/** A JDK or library class as `javap -protected` shows it (class-members.ts reads it). */
export interface LibraryType {
  /** `java.util.Map$Entry`. */
  name: string;
  kind: 'class' | 'interface' | 'enum' | 'record' | 'annotation';
  superclass?: string;
  interfaces: string[];
  members: LibraryMember[];
}

/**
 * Where class names come from besides the project's own sources. The default one
 * (`createTypeIndex` in type-index.ts) reads the JDK image and the module's
 * jars; tests and plugins may pass their own.
 */
export interface TypeIndex {
  /** Fully qualified names of exported, top-level JDK classes with this simple name. */
  jdkClasses(simpleName: string): Promise<string[]>;
  /**
   * Fully qualified names of top-level classes with this simple name in the jars that
   * `file` (root-relative) compiles against.
   */
  classpathClasses(simpleName: string, file: string, scope: SourceScope): Promise<string[]>;
  /**
   * Members of a JDK or library class (binary name, `java.util.Map$Entry`) that `file`
   * can see, or undefined when the class is not found. Optional: an index without it
   * simply offers no library members.
   */
  typeMembers?(binaryName: string, file: string, scope: SourceScope): Promise<LibraryType | undefined>;
}
