import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { layersRule } from '../../scripts/eslint-layers.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const src = (file: string) => path.resolve(import.meta.dirname, '../../src', file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });

describe('mvnx/layers', () => {
  tester.run('layers', layersRule, {
    valid: [
      { filename: src('repair/loop.ts'), code: "import { decideAttempt } from '../policy/decide-attempt.js';" },
      { filename: src('cli/main.ts'), code: "import { runRepair } from '../repair/entry.js';" },
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
      { filename: src('policy/load.ts'), code: "import { parseFlags } from '../cli/flags.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('maven/run.ts'), code: "export { x } from '../repair/loop.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('report/write.ts'), code: "const m = await import('../plugins/load.js');", errors: [{ messageId: 'upward' }] },
      // A type is a dependency too, and peers may not import each other (no cycle).
      { filename: src('policy/x.ts'), code: "import type { Provider } from '../model/provider.js';", errors: [{ messageId: 'upward' }] },
      // No exception is left: plugins/ may not import repair/, not even a type (the contracts module holds the shared shapes).
      { filename: src('plugins/types.ts'), code: "import type { Fixer } from '../repair/fixers/registry.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('plugins/load.ts'), code: "import { type AgentTool } from '../repair/agent/tool-kit.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('plugins/load.ts'), code: "import { BUILT_IN_FIXERS } from '../repair/fixers/registry.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('codebase/type-index.ts'), code: "import type { Fixer } from '../plugins/contracts.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('codebase/x.ts'), code: "import type { Diagnostic } from '../diagnose/types.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('java/x.ts'), code: "import { createSourceView } from '../codebase/index.js';", errors: [{ messageId: 'upward' }] },
      { filename: src('newstage/x.ts'), code: "import { y } from '../maven/run.js';", errors: [{ messageId: 'unknownFolder' }] },
    ],
  });
});
