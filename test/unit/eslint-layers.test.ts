import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { layersRule } from '../../scripts/eslint-layers.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const src = (file: string) => path.resolve(import.meta.dirname, '../../src', file);
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

describe('mvnx/layers', () => {
  tester.run('layers', layersRule, {
    valid: [
      {
        filename: src('repair/loop/repair-loop.ts'),
        code: "import { decideAttempt } from '../../policy/decide-attempt.js';",
      },
      { filename: src('cli/main.ts'), code: "import { handleBuildFailure } from '../app/handle-build-failure.js';" },
      // Outside repair/, its door; inside, each role imports the roles below it, down to the loop's ports.
      { filename: src('app/repair-session.ts'), code: "import { runRepairLoop } from '../repair/index.js';" },
      {
        filename: src('repair/index.ts'),
        code: "export { createModelProposer } from './proposers/model-proposer.js';",
      },
      {
        filename: src('repair/agent/proposer.ts'),
        code: "import { renderMessages } from '../proposers/model-proposer.js';",
      },
      {
        filename: src('repair/verification/verifier.ts'),
        code: "import type { Verification } from '../loop/ports.js';",
      },
      {
        filename: src('repair/fixers/dependency-update.ts'),
        code: "import { analyse } from '../dependency-update/analyse.js';",
      },
      { filename: src('maven/run.ts'), code: "import { MvnxError } from '../shared/errors.js';" },
      { filename: src('patch/apply.ts'), code: "import { x } from './helpers.js';" },
      // The shapes repair/ and plugins/ share come from plugins/, below repair/.
      { filename: src('repair/fixers/registry.ts'), code: "import type { Fixer } from '../../plugins/contracts.js';" },
      { filename: src('maven/run.ts'), code: "import { execa } from 'execa';" },
      // codebase/ (what is known of the user's code) sits below plugins/, which re-exports its types, and reads maven/ and java/.
      { filename: src('plugins/contracts.ts'), code: "export type { TypeIndex } from '../codebase/index.js';" },
      { filename: src('codebase/declared-classpath.ts'), code: "import { parsePomProject } from '../maven/pom.js';" },
    ],
    invalid: [
      {
        filename: src('policy/load.ts'),
        code: "import { parseFlags } from '../cli/flags.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('maven/run.ts'),
        code: "export { x } from '../repair/loop.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('report/write.ts'),
        code: "const m = await import('../plugins/load-plugins.js');",
        errors: [{ messageId: 'upward' }],
      },
      // A type is a dependency too, and peers may not import each other (no cycle).
      {
        filename: src('policy/x.ts'),
        code: "import type { Provider } from '../model/provider.js';",
        errors: [{ messageId: 'upward' }],
      },
      // No exception is left: plugins/ may not import repair/, not even a type (the contracts module holds the shared shapes).
      {
        filename: src('plugins/types.ts'),
        code: "import type { Fixer } from '../repair/fixers/registry.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('plugins/load-plugins.ts'),
        code: "import { type AgentTool } from '../repair/agent/tool-kit.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('plugins/load-plugins.ts'),
        code: "import { BUILT_IN_FIXERS } from '../repair/fixers/registry.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('codebase/type-index.ts'),
        code: "import type { Fixer } from '../plugins/contracts.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('codebase/x.ts'),
        code: "import type { Diagnostic } from '../diagnose/types.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('java/x.ts'),
        code: "import { createSourceView } from '../codebase/index.js';",
        errors: [{ messageId: 'upward' }],
      },
      {
        filename: src('newstage/x.ts'),
        code: "import { y } from '../maven/run.js';",
        errors: [{ messageId: 'unknownFolder' }],
      },
      // repair/ has one door, cli/ does not enter it, and its root holds nothing else.
      {
        filename: src('app/repair-session.ts'),
        code: "import { runRepairLoop } from '../repair/loop/repair-loop.js';",
        errors: [{ messageId: 'repairDoor' }],
      },
      {
        filename: src('bench/rebuild-prompt.ts'),
        code: "import { renderPromptText } from '../repair/proposers/model-proposer.js';",
        errors: [{ messageId: 'repairDoor' }],
      },
      {
        filename: src('cli/commands/tool.ts'),
        code: "import { BUILT_IN_AGENT_TOOLS } from '../../repair/index.js';",
        errors: [{ messageId: 'cliRepair' }],
      },
      {
        filename: src('cli/build.ts'),
        code: "const { run } = await import('../repair/index.js');",
        errors: [{ messageId: 'cliRepair' }],
      },
      { filename: src('repair/engine.ts'), code: 'export const x = 1;', errors: [{ messageId: 'repairRoot' }] },
      // Inside repair/: no upward import between roles, no peer import, and no role imports the door.
      {
        filename: src('repair/loop/repair-loop.ts'),
        code: "import { createVerifier } from '../verification/verifier.js';",
        errors: [{ messageId: 'repairUpward' }],
      },
      {
        filename: src('repair/dependency-update/analyse.ts'),
        code: "import { x } from '../fixers/dependency-update.js';",
        errors: [{ messageId: 'repairUpward' }],
      },
      {
        filename: src('repair/context/gather.ts'),
        code: "import type { Finding } from '../integrity/index.js';",
        errors: [{ messageId: 'repairUpward' }],
      },
      {
        filename: src('repair/fixers/registry.ts'),
        code: "import { runRepairLoop } from '../index.js';",
        errors: [{ messageId: 'repairUpward' }],
      },
      {
        filename: src('repair/newrole/x.ts'),
        code: "import type { Proposal } from '../loop/ports.js';",
        errors: [{ messageId: 'repairUpward' }],
      },
    ],
  });
});
