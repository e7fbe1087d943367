/**
 * Which file and line a capability is reported from (the risk reason quotes it), and which
 * files count as a POM: found by mutation testing (mutation/slices/policy-capabilities.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import { addedCapabilities } from '../../src/policy/capabilities.js';
import type { ChangeSet } from '../../src/patch/types.js';

const POM =
  '<project><modelVersion>4.0.0</modelVersion><artifactId>a</artifactId><build><plugins>\n</plugins></build></project>\n';
const ANTRUN = POM.replace(
  '<plugins>\n',
  '<plugins>\n<plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin>\n',
);
const EXEC = POM.replace(
  '<plugins>\n',
  '<plugins>\n<plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.1.0</version></plugin>\n',
);
const MAIN = 'src/main/java/com/acme/Order.java';

describe('addedCapabilities', () => {
  it('names the first POM that adds build-time code, with its plugins', () => {
    const changeSet: ChangeSet = {
      files: [
        { path: 'pom.xml', before: POM, after: ANTRUN },
        { path: 'core/pom.xml', before: POM, after: EXEC },
      ],
    };
    expect(addedCapabilities(changeSet)).toEqual([
      { name: 'build-time code execution', where: 'pom.xml: <plugin> maven-antrun-plugin' },
    ]);
  });

  it('lists every build-time plugin one POM adds, separated by commas', () => {
    const both = ANTRUN.replace(
      '<plugins>\n',
      '<plugins>\n<plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.1.0</version></plugin>\n',
    );
    expect(addedCapabilities({ files: [{ path: 'pom.xml', before: POM, after: both }] })).toEqual([
      { name: 'build-time code execution', where: 'pom.xml: <plugin> exec-maven-plugin, maven-antrun-plugin' },
    ]);
  });

  it('reads pom.xml and *.pom files only, and no binary file', () => {
    expect(addedCapabilities({ files: [{ path: 'deps/a-1.0.pom', before: POM, after: ANTRUN }] })).toHaveLength(1);
    expect(addedCapabilities({ files: [{ path: 'pom.xml.orig', before: POM, after: ANTRUN }] })).toEqual([]);
    expect(addedCapabilities({ files: [{ path: 'docs/a.pom.txt', before: POM, after: ANTRUN }] })).toEqual([]);
    expect(addedCapabilities({ files: [{ path: 'pom.xml', before: POM, after: ANTRUN, binary: true }] })).toEqual([]);
  });

  it('quotes the first line that adds a capability, trimmed and cut to 80 characters', () => {
    const first = `    Runtime.getRuntime().exec(command); // ${'x'.repeat(100)}`;
    const changeSet: ChangeSet = {
      files: [
        {
          path: MAIN,
          before: 'class Order {\n}\n',
          after: `class Order {\n${first}\n    new ProcessBuilder("ls").start();\n}\n`,
        },
      ],
    };
    expect(addedCapabilities(changeSet)).toEqual([
      { name: 'process execution', where: `${MAIN}: ${first.trim().slice(0, 80)}` },
    ]);
  });

  it('quotes the first line with a Unicode escape', () => {
    const changeSet: ChangeSet = {
      files: [
        {
          path: MAIN,
          before: 'class Order {\n}\n',
          after: 'class Order {\n  // \\u000a int a;\n  // \\u000a int b;\n}\n',
        },
      ],
    };
    expect(addedCapabilities(changeSet)).toEqual([{ name: 'Unicode escapes', where: `${MAIN}: // \\u000a int a;` }]);
  });
});
