/**
 * The fix's modules as the checkout's POMs say (report/publish/fix-modules.ts), on a real multi-module tree on disk:
 * each file's deepest module folder, its artifactId (inherited groupId, nested modules); what the reader cannot tell
 * is a refusal, never an empty list that would leave a module-scoped rule unmatched.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixModulesFromPoms } from '../../src/report/publish/fix-modules.js';
import { tempDir } from '../helpers/temp-dir.js';

const pom = (artifactId: string, modules: string[] = [], parent = false) =>
  [
    '<project><modelVersion>4.0.0</modelVersion>',
    parent ? '<parent><groupId>acme</groupId><artifactId>shop</artifactId><version>1</version></parent>' : '',
    parent ? '' : '<groupId>acme</groupId><version>1</version>',
    `<artifactId>${artifactId}</artifactId>`,
    modules.length > 0
      ? `<packaging>pom</packaging><modules>${modules.map((m) => `<module>${m}</module>`).join('')}</modules>`
      : '',
    '</project>',
  ].join('');

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir('mvnx-fix-modules-');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

describe('fixModulesFromPoms', () => {
  it("names each file's deepest module, by the artifactId its POM gives", async () => {
    const root = await tree({
      'pom.xml': pom('shop', ['billing', 'platform']),
      'billing/pom.xml': pom('shop-billing', [], true),
      'platform/pom.xml': pom('platform', ['core'], true),
      'platform/core/pom.xml': pom('platform-core', [], true),
    });
    expect(
      await fixModulesFromPoms(root, [
        'billing/src/main/java/acme/Invoice.java',
        'platform/core/src/main/java/acme/Core.java',
        'billing/src/main/java/acme/Tax.java',
      ]),
    ).toEqual({ modules: ['platform-core', 'shop-billing'] });
    // A file of the aggregator itself (its folder, no deeper module) belongs to the root module.
    expect(await fixModulesFromPoms(root, ['docs/notes.txt'])).toEqual({ modules: ['shop'] });
  });

  it('refuses when a POM cannot be read: the modules are not guessed', async () => {
    const root = await tree({
      'pom.xml': pom('shop', ['billing', 'missing']),
      'billing/pom.xml': pom('shop-billing', [], true),
    });
    const found = await fixModulesFromPoms(root, ['billing/src/main/java/acme/Invoice.java']);
    expect(found).toEqual({
      problem: expect.stringMatching(
        /^the fix's modules cannot be read from this checkout's POMs: cannot read missing\/pom\.xml: /,
      ) as string,
    });
  });
});
