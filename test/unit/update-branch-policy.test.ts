/**
 * The pure parts of fixing a dependency bot's pull request on its branch: which branches are a bot's, which mode the
 * fix's files get (per rule), and what is never pushed without a person (patch/push-guard.ts).
 */
import { describe, expect, it } from 'vitest';
import { pushRefusals } from '../../src/patch/push-guard.js';
import { configSchema } from '../../src/policy/schema.js';
import { botOfBranch, updateBranchModeFor } from '../../src/policy/update-branch-mode.js';

const policy = (config: Record<string, unknown>) =>
  configSchema.parse(config) as unknown as Parameters<typeof updateBranchModeFor>[2];
const DEFAULT_BOTS = ['dependabot/**', 'renovate/**'];

describe('bot branches (publish.botBranches)', () => {
  it("names Dependabot's and Renovate's branches, a configured prefix, and not a person's branch", () => {
    expect(botOfBranch('dependabot/maven/com.google.guava-guava-33.0.0-jre', DEFAULT_BOTS)).toBe('dependabot');
    expect(botOfBranch('renovate/guava-33.x', DEFAULT_BOTS)).toBe('renovate');
    expect(botOfBranch('deps/guava', [...DEFAULT_BOTS, 'deps/**'])).toBe('configured');
    expect(botOfBranch('feature/dependabot-ish', DEFAULT_BOTS)).toBeUndefined();
    expect(botOfBranch('renovate/guava', ['dependabot/**'])).toBeUndefined();
  });

  it('defaults: updateBranch off, both bots', () => {
    const parsed = configSchema.parse({});
    expect(parsed.publish.updateBranch).toBe('off');
    expect(parsed.publish.botBranches).toEqual(DEFAULT_BOTS);
    expect(() => configSchema.parse({ publish: { updateBranch: 'force-push' } })).toThrow(/updateBranch/);
  });
});

describe('the mode for the fix’s files', () => {
  it('a later rule overrides for its paths; across paths the most careful mode wins', () => {
    const p = policy({
      publish: { updateBranch: 'commit' },
      rules: [
        { paths: ['billing/**'], publish: { updateBranch: 'pull-request' } },
        { paths: ['billing/legacy/**'], publish: { updateBranch: 'off' } },
      ],
    });
    expect(updateBranchModeFor(['app/A.java'], [], p)).toEqual({ mode: 'commit' });
    expect(updateBranchModeFor(['app/A.java', 'billing/B.java'], [], p)).toEqual({
      mode: 'pull-request',
      setBy: 'rules[0] for billing/B.java',
    });
    expect(updateBranchModeFor(['billing/B.java', 'billing/legacy/C.java'], [], p).mode).toBe('off');
  });
});

describe('what is never pushed onto a bot’s branch', () => {
  const edit = (path: string, before: string | null, after: string | null) => ({ files: [{ path, before, after }] });
  const pom = (build = '') =>
    `<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>b</artifactId><version>1</version>${build}</project>\n`;

  it('a main-source edit passes', () => {
    expect(pushRefusals(edit('src/main/java/a/A.java', 'class A {}\n', 'class A { }\n'))).toEqual([]);
  });

  it('the test side, by folder and in a module', () => {
    expect(pushRefusals(edit('core/src/test/java/a/ATest.java', 'x\n', 'y\n'))).toEqual([
      'core/src/test/java/a/ATest.java is on the test side',
    ]);
    expect(pushRefusals(edit('src/test/resources/data.json', '{}\n', '[]\n'))).toEqual([
      'src/test/resources/data.json is on the test side',
    ]);
  });

  it("a POM's plugin, a plugin's configuration, a code-running plugin; not a dependency's version", () => {
    const surefire = (skip: string) =>
      `<build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version><configuration>${skip}</configuration></plugin></plugins></build>`;
    expect(pushRefusals(edit('pom.xml', pom(surefire('')), pom(surefire('<skipTests>true</skipTests>'))))).toEqual([
      'pom.xml adds or changes a build plugin or extension: build-time code',
    ]);
    expect(
      pushRefusals(
        edit(
          'pom.xml',
          pom(),
          pom('<build><plugins><plugin><artifactId>exec-maven-plugin</artifactId></plugin></plugins></build>'),
        ),
      ),
    ).toEqual([
      'pom.xml adds or changes a build plugin or extension: build-time code',
      'pom.xml adds or changes exec-maven-plugin, which runs code during the build',
    ]);
    const dependency = (version: string) =>
      `<dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId><version>${version}</version></dependency></dependencies>`;
    expect(pushRefusals(edit('pom.xml', pom(dependency('1')), pom(dependency('2'))))).toEqual([]);
  });

  it('the wrapper, .mvn/, CI files and an annotation processor registration', () => {
    expect(pushRefusals(edit('.mvn/extensions.xml', null, '<extensions/>\n'))).toEqual([
      '.mvn/extensions.xml is Maven configuration or extensions (.mvn/): build-time code',
    ]);
    expect(pushRefusals(edit('mvnw', 'a\n', 'b\n'))).toEqual(['mvnw is the Maven wrapper: build-time code']);
    expect(pushRefusals(edit('.github/workflows/ci.yml', 'a\n', 'b\n'))).toEqual([
      '.github/workflows/ci.yml is CI configuration: build-time code',
    ]);
    expect(
      pushRefusals(edit('src/main/resources/META-INF/services/javax.annotation.processing.Processor', null, 'a.P\n')),
    ).toEqual([
      'src/main/resources/META-INF/services/javax.annotation.processing.Processor is an annotation processor registration: build-time code',
    ]);
  });
});
