/**
 * The verification benchmark's projects (`npm run bench:verify`), generated at bench time
 * so that nothing large is checked in: a reactor of seven jar modules with inter-module
 * dependencies (util <- model <- core <- storage/service/report, service <- app) and a
 * single-module project, a few hundred classes and a few hundred JUnit 5 tests each, built
 * offline with the plugins pinned in `~/.m2`.
 *
 * Pure and deterministic: the same spec always gives the same files. Every class computes
 * a small integer function of its input through a chain of other classes (its own
 * module's and its dependencies'), so the tests' expected values are computed here, from
 * the same formulas, and a bug anywhere shows in the tests downstream of it.
 *
 * Each bug comes with the three replies a model gives: one that does not compile, one
 * that compiles but leaves the failing test failing, and the right fix.
 */

export interface ModuleSpec {
  /** Folder and artifactId ('' for a single-module project's root). */
  dir: string;
  /** Class name stems, used in turn. */
  stems: string[];
  classes: number;
  /** Every `testEvery`-th class has a test class (five tests). */
  testEvery: number;
  /** Module folders this one depends on (compile scope). */
  dependsOn: string[];
}

export interface ProjectSpec {
  name: string;
  groupId: string;
  modules: ModuleSpec[];
}

export type BugKind = 'leaf' | 'core' | 'test';

export interface BugSpec {
  name: string;
  kind: BugKind;
  /** Module folder the bug is in. */
  module: string;
  /** Which tested class (index among the module's classes). */
  classIndex: number;
}

export interface GeneratedBug {
  name: string;
  kind: BugKind;
  module: string;
  /** Project-relative path of the file the bug is in. */
  file: string;
  correct: string;
  broken: string;
  /** Model replies, each written against the broken file. */
  replies: { doesNotCompile: string; testStillFails: string; fix: string };
}

export interface GeneratedProject {
  name: string;
  /** Project-relative path (forward slashes) to content. */
  files: Map<string, string>;
  bugs: GeneratedBug[];
  stats: { modules: number; mainClasses: number; testClasses: number; tests: number };
}

const MODULUS = 10007;

export const MULTI_MODULE_SPEC: ProjectSpec = {
  name: 'ledger',
  groupId: 'com.acme.ledger',
  modules: [
    { dir: 'util', stems: ['Text', 'Numbers', 'Checks', 'Codec'], classes: 36, testEvery: 4, dependsOn: [] },
    { dir: 'model', stems: ['Account', 'Entry', 'Money', 'Party', 'Period'], classes: 48, testEvery: 4, dependsOn: ['util'] },
    { dir: 'core', stems: ['Posting', 'Balance', 'Rule', 'Journal', 'Ledger'], classes: 56, testEvery: 4, dependsOn: ['model', 'util'] },
    { dir: 'storage', stems: ['Store', 'Index', 'Cache', 'Page'], classes: 40, testEvery: 4, dependsOn: ['core'] },
    { dir: 'service', stems: ['Orders', 'Billing', 'Transfer', 'Audit'], classes: 48, testEvery: 4, dependsOn: ['core', 'storage'] },
    { dir: 'app', stems: ['Command', 'Screen', 'Config', 'Session'], classes: 36, testEvery: 4, dependsOn: ['service'] },
    // Declared last, so a fail-fast build reaches it after every other module.
    { dir: 'report', stems: ['Summary', 'Chart', 'Export', 'Digest'], classes: 40, testEvery: 4, dependsOn: ['core'] },
  ],
};

export const MULTI_MODULE_BUGS: BugSpec[] = [
  { name: 'leaf module (report)', kind: 'leaf', module: 'report', classIndex: 8 },
  { name: 'core module (core)', kind: 'core', module: 'core', classIndex: 12 },
  { name: 'test code (service)', kind: 'test', module: 'service', classIndex: 16 },
];

export const SINGLE_MODULE_SPEC: ProjectSpec = {
  name: 'invoicing',
  groupId: 'com.acme.invoicing',
  modules: [{ dir: '', stems: ['Invoice', 'Line', 'Tax', 'Discount', 'Customer', 'Rounding', 'Currency', 'Terms'], classes: 200, testEvery: 3, dependsOn: [] }],
};

export const SINGLE_MODULE_BUGS: BugSpec[] = [{ name: 'single module', kind: 'leaf', module: '', classIndex: 120 }];

interface ClassModel {
  module: string;
  pkg: string;
  name: string;
  factor: number;
  offset: number;
  /** The class this one builds on, if any. */
  dep?: ClassModel;
  tested: boolean;
}

/** mulberry32: small, seeded, the same sequence everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const floorMod = (value: number, modulus: number) => ((value % modulus) + modulus) % modulus;

function applyOf(model: ClassModel, x: number): number {
  const base = model.dep ? applyOf(model.dep, x) : floorMod(x, MODULUS);
  return floorMod(base * model.factor + model.offset, MODULUS);
}

function sumRangeOf(model: ClassModel, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += applyOf(model, i) % 97;
  return sum;
}

function describeOf(model: ClassModel, x: number): string {
  return `${model.name}(${x})=${applyOf(model, x)}`;
}

function packageOf(spec: ProjectSpec, module: ModuleSpec): string {
  return module.dir === '' ? spec.groupId : `${spec.groupId}.${module.dir}`;
}

function javaPath(module: ModuleSpec, kind: 'main' | 'test', pkg: string, name: string): string {
  const prefix = module.dir === '' ? '' : `${module.dir}/`;
  return `${prefix}src/${kind}/java/${pkg.replace(/\./g, '/')}/${name}.java`;
}

export function generateProject(spec: ProjectSpec, bugs: BugSpec[], seed = 17): GeneratedProject {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const models = new Map<string, ClassModel[]>();
  const files = new Map<string, string>();

  for (const module of spec.modules) {
    const pkg = packageOf(spec, module);
    const own: ClassModel[] = [];
    // Classes build on their own module's and on those of the modules they depend on directly.
    const upstream = module.dependsOn.flatMap((dir) => (models.get(dir) ?? []).slice(-12));
    for (let i = 0; i < module.classes; i++) {
      const stem = module.stems[i % module.stems.length]!;
      const candidates = [...own.slice(-12), ...upstream];
      // Chains stay short enough to read, long enough that a bug travels downstream.
      const dep = candidates.length > 0 && next() < 0.8 ? pick(candidates) : undefined;
      own.push({ module: module.dir, pkg, name: `${stem}${i}`, factor: 2 + Math.floor(next() * 8), offset: 1 + Math.floor(next() * 50), ...(dep ? { dep } : {}), tested: i % module.testEvery === 0 });
    }
    models.set(module.dir, own);
    for (const model of own) {
      files.set(javaPath(module, 'main', pkg, model.name), mainClass(model));
      if (model.tested) files.set(javaPath(module, 'test', pkg, `${model.name}Test`), testClass(model));
    }
    files.set(javaPath(module, 'main', pkg, 'Operation'), operationInterface(pkg));
    files.set(`${module.dir === '' ? '' : `${module.dir}/`}src/main/resources/${module.dir || spec.name}.properties`, `module=${module.dir || spec.name}\nclasses=${module.classes}\n`);
    files.set(`${module.dir === '' ? '' : `${module.dir}/`}pom.xml`, module.dir === '' ? singlePom(spec) : modulePom(spec, module));
  }
  if (spec.modules.some((m) => m.dir !== '')) files.set('pom.xml', parentPom(spec));
  files.set('.gitignore', 'target/\n.mvnx/\n');

  const generatedBugs = bugs.map((bug) => makeBug(spec, bug, models, files));
  const all = [...models.values()].flat();
  const testClasses = all.filter((m) => m.tested).length;
  return {
    name: spec.name,
    files,
    bugs: generatedBugs,
    stats: { modules: spec.modules.length, mainClasses: all.length + spec.modules.length, testClasses, tests: testClasses * TESTS_PER_CLASS },
  };
}

function operationInterface(pkg: string): string {
  return `package ${pkg};

/** A step of a computation: every generated class is one. */
public interface Operation {
    int apply(int x);

    default String label() {
        return getClass().getSimpleName();
    }
}
`;
}

function depField(model: ClassModel): { imports: string; call: string } {
  if (!model.dep) return { imports: '', call: `Math.floorMod(x, ${MODULUS})` };
  const imports = model.dep.pkg === model.pkg ? '' : `import ${model.dep.pkg}.${model.dep.name};\n`;
  return { imports, call: `new ${model.dep.name}().apply(x)` };
}

/** The one line a bug changes: keep it exactly this shape. */
const applyLine = (sign: string, offsetName = 'offset') => `        return Math.floorMod(base * factor ${sign} ${offsetName}, MODULUS);`;

function mainClass(model: ClassModel): string {
  const { imports, call } = depField(model);
  return `package ${model.pkg};

${imports}import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * ${model.name}: one step of the ${model.module || 'project'} computations.
 */
public final class ${model.name} implements Operation {
    private static final int MODULUS = ${MODULUS};

    private final int factor;
    private final int offset;

    public ${model.name}() {
        this(${model.factor}, ${model.offset});
    }

    public ${model.name}(int factor, int offset) {
        if (factor <= 0) {
            throw new IllegalArgumentException("factor must be positive: " + factor);
        }
        this.factor = factor;
        this.offset = offset;
    }

    public int factor() {
        return factor;
    }

    public int offset() {
        return offset;
    }

    @Override
    public int apply(int x) {
        int base = ${call};
${applyLine('+')}
    }

    public List<Integer> applyAll(List<Integer> values) {
        List<Integer> result = new ArrayList<>(values.size());
        for (Integer value : values) {
            result.add(apply(Objects.requireNonNull(value, "value")));
        }
        return Collections.unmodifiableList(result);
    }

    public int sumRange(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += apply(i) % 97;
        }
        return sum;
    }

    public int largest(List<Integer> values) {
        int best = Integer.MIN_VALUE;
        for (int value : applyAll(values)) {
            best = Math.max(best, value);
        }
        return best;
    }

    public String describe(int x) {
        return "${model.name}(" + x + ")=" + apply(x);
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ${model.name})) {
            return false;
        }
        ${model.name} that = (${model.name}) other;
        return factor == that.factor && offset == that.offset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(factor, offset);
    }

    @Override
    public String toString() {
        return "${model.name}{factor=" + factor + ", offset=" + offset + "}";
    }
}
`;
}

const TESTS_PER_CLASS = 5;

function testClass(model: ClassModel, call = 'apply'): string {
  const values = [1, 2, 3];
  return `package ${model.pkg};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ${model.name}Test {
    private final ${model.name} operation = new ${model.name}();

    @Test
    void appliesToASmallValue() {
        assertEquals(${applyOf(model, 3)}, operation.${call}(3));
    }

    @Test
    void appliesToALargeValue() {
        assertEquals(${applyOf(model, 123456)}, operation.apply(123456));
    }

    @Test
    void appliesToEveryValue() {
        assertEquals(List.of(${values.map((v) => applyOf(model, v)).join(', ')}), operation.applyAll(List.of(${values.join(', ')})));
    }

    @Test
    void sumsARange() {
        assertEquals(${sumRangeOf(model, 50)}, operation.sumRange(50));
    }

    @Test
    void describesItselfAndRefusesABadFactor() {
        assertEquals("${describeOf(model, 7)}", operation.describe(7));
        assertThrows(IllegalArgumentException.class, () -> new ${model.name}(0, 1));
    }
}
`;
}

function makeBug(spec: ProjectSpec, bug: BugSpec, models: Map<string, ClassModel[]>, files: Map<string, string>): GeneratedBug {
  const module = spec.modules.find((m) => m.dir === bug.module);
  const model = models.get(bug.module)?.[bug.classIndex];
  if (!module || !model) throw new Error(`bug ${bug.name}: no class ${bug.classIndex} in module ${JSON.stringify(bug.module)}`);
  if (!model.tested) throw new Error(`bug ${bug.name}: ${model.name} has no test; pick a class index divisible by ${module.testEvery}`);

  if (bug.kind === 'test') {
    // Test code that no longer compiles: it calls a method by a name the class never had.
    const file = javaPath(module, 'test', model.pkg, `${model.name}Test`);
    const correct = files.get(file)!;
    const broken = testClass(model, 'applyTo');
    return {
      name: bug.name,
      kind: bug.kind,
      module: bug.module,
      file,
      correct,
      broken,
      replies: {
        doesNotCompile: reply(`\`${model.name}Test\` calls \`applyTo\`, which \`${model.name}\` does not have. The method is probably called \`applyOnce\`:`, file, broken, testClass(model, 'applyOnce')),
        testStillFails: reply(`\`${model.name}Test\` calls \`applyTo\`, which \`${model.name}\` does not have; \`sumRange\` computes the value for a count:`, file, broken, testClass(model, 'sumRange')),
        fix: reply(`\`${model.name}Test\` calls \`applyTo\`, but the method of \`${model.name}\` (from \`Operation\`) is \`apply\`:`, file, broken, correct),
      },
    };
  }

  // A logic bug: the offset is subtracted instead of added.
  const file = javaPath(module, 'main', model.pkg, model.name);
  const correct = files.get(file)!;
  const broken = replaceOnce(correct, applyLine('+'), applyLine('-'));
  return {
    name: bug.name,
    kind: bug.kind,
    module: bug.module,
    file,
    correct,
    broken,
    replies: {
      doesNotCompile: reply(`\`${model.name}.apply\` subtracts the offset; it should add it:`, file, broken, replaceOnce(broken, applyLine('-'), applyLine('+', 'offsetValue'))),
      testStillFails: reply(`\`${model.name}.apply\` should scale the offset, not subtract it:`, file, broken, replaceOnce(broken, applyLine('-'), applyLine('*'))),
      fix: reply(`\`${model.name}.apply\` subtracts the offset where it should add it, so every expected value is off:`, file, broken, correct),
    },
  };
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`expected exactly one ${JSON.stringify(from)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** A 7B-style reply: a sentence of prose, then a unified diff of the one changed region. */
function reply(prose: string, file: string, before: string, after: string): string {
  return `${prose}\n\n\`\`\`diff\n${unifiedDiff(file, before, after)}\`\`\`\n`;
}

/** A unified diff of the changed lines with three lines of context (one hunk: the edits here are local). */
export function unifiedDiff(file: string, before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  if (start > endA && start > endB) throw new Error(`no change in ${file}`);
  const from = Math.max(0, start - 3);
  const toA = Math.min(a.length - 1, endA + 3);
  const toB = Math.min(b.length - 1, endB + 3);
  const lines = [
    ...a.slice(from, start).map((l) => ` ${l}`),
    ...a.slice(start, endA + 1).map((l) => `-${l}`),
    ...b.slice(start, endB + 1).map((l) => `+${l}`),
    ...a.slice(endA + 1, toA + 1).map((l) => ` ${l}`),
  ];
  const countA = toA - from + 1;
  const countB = toB - from + 1;
  return `--- a/${file}\n+++ b/${file}\n@@ -${from + 1},${countA} +${from + 1},${countB} @@\n${lines.join('\n')}\n`;
}

const PLUGINS = [
  ['maven-clean-plugin', '3.3.2'],
  ['maven-resources-plugin', '3.3.1'],
  ['maven-compiler-plugin', '3.13.0'],
  ['maven-surefire-plugin', '3.2.5'],
  ['maven-jar-plugin', '3.4.1'],
  ['maven-install-plugin', '3.1.2'],
];

function pluginManagement(): string {
  return `  <build>
    <pluginManagement>
      <plugins>
${PLUGINS.map(([id, version]) => `        <plugin><artifactId>${id}</artifactId><version>${version}</version></plugin>`).join('\n')}
      </plugins>
    </pluginManagement>
  </build>`;
}

const POM_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>`;

const PROPERTIES = `  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>`;

const JUNIT = `    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>`;

function parentPom(spec: ProjectSpec): string {
  return `${POM_HEAD}
  <groupId>${spec.groupId}</groupId>
  <artifactId>${spec.name}-parent</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
${spec.modules.map((m) => `    <module>${m.dir}</module>`).join('\n')}
  </modules>
${PROPERTIES}
  <dependencies>
${JUNIT}
  </dependencies>
${pluginManagement()}
</project>
`;
}

function modulePom(spec: ProjectSpec, module: ModuleSpec): string {
  const deps = module.dependsOn.map(
    (dir) => `    <dependency>
      <groupId>${spec.groupId}</groupId>
      <artifactId>${dir}</artifactId>
      <version>\${project.version}</version>
    </dependency>`,
  );
  return `${POM_HEAD}
  <parent>
    <groupId>${spec.groupId}</groupId>
    <artifactId>${spec.name}-parent</artifactId>
    <version>1.0.0-SNAPSHOT</version>
  </parent>
  <artifactId>${module.dir}</artifactId>
  <packaging>jar</packaging>
${deps.length > 0 ? `  <dependencies>\n${deps.join('\n')}\n  </dependencies>\n` : ''}</project>
`;
}

function singlePom(spec: ProjectSpec): string {
  return `${POM_HEAD}
  <groupId>${spec.groupId}</groupId>
  <artifactId>${spec.name}</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>jar</packaging>
${PROPERTIES}
  <dependencies>
${JUNIT}
  </dependencies>
${pluginManagement()}
</project>
`;
}
