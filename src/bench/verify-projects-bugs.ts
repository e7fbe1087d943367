/**
 * The verification benchmark's bugs: each breaks one tested class (a logic bug in main
 * code, or test code that no longer compiles) and comes with the three replies a model
 * gives: one that does not compile, one that compiles but leaves the failing test failing,
 * and the right fix, each a sentence of prose and a unified diff as a 7B model writes it.
 */

import type { BugSpec, GeneratedBug, ProjectSpec } from './verify-projects-types.js';
import { applyLine, type ClassModel, javaPath, testClass } from './verify-projects-java.js';

export function makeBug(
  spec: ProjectSpec,
  bug: BugSpec,
  models: Map<string, ClassModel[]>,
  files: Map<string, string>,
): GeneratedBug {
  const module = spec.modules.find((m) => m.dir === bug.module);
  const model = models.get(bug.module)?.[bug.classIndex];
  if (!module || !model)
    throw new Error(`bug ${bug.name}: no class ${bug.classIndex} in module ${JSON.stringify(bug.module)}`);
  if (!model.tested)
    throw new Error(`bug ${bug.name}: ${model.name} has no test; pick a class index divisible by ${module.testEvery}`);

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
        doesNotCompile: reply(
          `\`${model.name}Test\` calls \`applyTo\`, which \`${model.name}\` does not have. The method is probably called \`applyOnce\`:`,
          file,
          broken,
          testClass(model, 'applyOnce'),
        ),
        testStillFails: reply(
          `\`${model.name}Test\` calls \`applyTo\`, which \`${model.name}\` does not have; \`sumRange\` computes the value for a count:`,
          file,
          broken,
          testClass(model, 'sumRange'),
        ),
        fix: reply(
          `\`${model.name}Test\` calls \`applyTo\`, but the method of \`${model.name}\` (from \`Operation\`) is \`apply\`:`,
          file,
          broken,
          correct,
        ),
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
      doesNotCompile: reply(
        `\`${model.name}.apply\` subtracts the offset; it should add it:`,
        file,
        broken,
        replaceOnce(broken, applyLine('-'), applyLine('+', 'offsetValue')),
      ),
      testStillFails: reply(
        `\`${model.name}.apply\` should scale the offset, not subtract it:`,
        file,
        broken,
        replaceOnce(broken, applyLine('-'), applyLine('*')),
      ),
      fix: reply(
        `\`${model.name}.apply\` subtracts the offset where it should add it, so every expected value is off:`,
        file,
        broken,
        correct,
      ),
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
