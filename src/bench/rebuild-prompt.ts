/**
 * The first prompt of a run that asked no model (a quick-fix fixed it): built from the
 * run record's diagnosis by the same code the model proposer uses, on the case's tree,
 * with the default config the bench runs under. So "fix lines in prompt" measures the
 * prompt mvnx would have sent for every case, not only those a model was asked about.
 * `npm run bench:context` judges the pieces of the same prompt (firstRepairPrompt).
 */
import type { Diagnostic } from '../diagnose/types.js';
import { promptWindow } from '../model/index.js';
import type { RepairPrompt } from '../model/prompts/index.js';
import { configSchema, toPatchPolicy } from '../policy/index.js';
import type { RunRecord } from '../report/run-record.js';
import { createSourceView, createTypeIndex } from '../codebase/index.js';
import { buildPromptFor, dependencyUpdatePiece, renderPromptText } from '../repair/index.js';

/** The first repair prompt for these diagnostics on the tree at `projectRoot`, under the default config. */
export async function firstRepairPrompt(
  projectRoot: string,
  diagnostics: Diagnostic[],
  dependencyUpdate?: RunRecord['dependencyUpdate'],
): Promise<RepairPrompt> {
  const config = configSchema.parse({});
  const view = createSourceView(projectRoot);
  const diagnosis = { diagnostics, fingerprint: '', fixable: true, modules: [], warnings: [] };
  return buildPromptFor(diagnosis, { files: [] }, [], {
    read: () => (file) => view.read(file),
    list: (glob) => view.list(glob),
    types: createTypeIndex({ projectRoot }),
    checker: { root: projectRoot, policy: toPatchPolicy(config) },
    editFormat: config.model.editFormat,
    contextTokens: promptWindow(config.model),
    ...(dependencyUpdate ? { extraContext: () => [dependencyUpdatePiece(dependencyUpdate)] } : {}),
  });
}

export async function rebuildFirstPrompt(projectRoot: string, record: RunRecord): Promise<string | undefined> {
  if (!record.diagnostics.some((diagnostic) => diagnostic.fixable)) return undefined;
  return renderPromptText(await firstRepairPrompt(projectRoot, record.diagnostics, record.dependencyUpdate));
}
