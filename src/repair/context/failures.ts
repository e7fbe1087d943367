/**
 * Context for a failing test. With project frames in main code (an exception, maybe
 * wrapped): the method of every frame of the cause chain, the root cause's deepest one
 * first. Without one (a plain assertion failure): the code under test, found from the
 * test method: the methods it calls on project classes (through fields, locals, imports,
 * static calls), ranked by the failing line, the FooTest -> Foo convention and the
 * classes the message names, with the methods those call in turn. Always: the test.
 */
import {
  allTypes,
  callReceivers,
  fieldsOf,
  methodAt,
  rawTypeName,
  returnTypeOf,
  type JavaMethod,
  type JavaType,
} from '../../java/index.js';
import type { Diagnostic, FailureFrame } from '../../diagnose/types.js';
import type { ContextPiece } from '../../model/prompts/index.js';
import { fieldPieces, importsPiece, methodPiece, PieceSet, typeHeaderPiece, type PieceMeta } from './pieces.js';
import { restOfClassScore, surroundings, SUPPORTING_IMPORTS_SCORE } from './supporting.js';
import { scopeOf, type ProjectSources, type ProjectType } from './sources.js';

/** How far calls are followed from the test into the code under test. */
const MAX_CALL_DEPTH = 3;
const MAX_UNDER_TEST_METHODS = 24;

function isTestFrame(frame: FailureFrame, testClass: string): boolean {
  return frame.className === testClass || frame.className.startsWith(`${testClass}$`) || scopeOf(frame.file) === 'test';
}

export async function testFailureContext(diagnostic: Diagnostic, sources: ProjectSources): Promise<ContextPiece[]> {
  const failure = diagnostic.testFailure;
  const out = new PieceSet();
  const testClass = failure?.className ?? diagnostic.test?.split('#')[0] ?? '';
  const frames: FailureFrame[] =
    failure?.frames ??
    (diagnostic.file && diagnostic.line
      ? [{ file: diagnostic.file, line: diagnostic.line, className: testClass, method: failure?.method ?? '' }]
      : []);
  const problem = failure?.rootCause ?? `${failure?.failureType ?? 'failure'}: ${diagnostic.message}`;

  let mainFrames = 0;
  for (const [rank, frame] of frames.entries()) {
    if (frame.line === undefined) continue;
    const file = await sources.parse(frame.file);
    const found = file && methodAt(file, { line: frame.line });
    if (!file || !found) continue;
    if (isTestFrame(frame, testClass)) {
      out.add(
        methodPiece(
          frame.file,
          file,
          found.method,
          { tier: 'test', score: 100 - rank, reason: 'the failing test' },
          frame.line,
        ),
      );
      continue;
    }
    const reason =
      mainFrames === 0
        ? `where it fails: ${firstLine(problem)}`
        : `on the failing call path (${frame.className.slice(frame.className.lastIndexOf('.') + 1)}.${frame.method}, line ${frame.line})`;
    out.add(
      methodPiece(frame.file, file, found.method, { tier: 'primary', score: 100 - 2 * mainFrames, reason }, frame.line),
    );
    surroundings(out, frame.file, file, found.type, 96 - 2 * mainFrames, reason);
    // The rest of the class: small classes fit whole, and the fix may belong next door.
    for (const method of found.type.methods)
      out.add(
        methodPiece(frame.file, file, method, {
          tier: 'other',
          score: restOfClassScore(method, 40 - mainFrames),
          reason: `rest of ${found.type.name}`,
        }),
      );
    mainFrames++;
  }

  const test = await sources.type(testClass.split('$')[0]!);
  const testMethod = test && findTestMethod(test, failure?.method ?? diagnostic.test?.split('#')[1] ?? '');
  if (test && testMethod) {
    out.add(
      methodPiece(test.path, test.file, testMethod.method, { tier: 'test', score: 100, reason: 'the failing test' }),
    );
    out.add(
      importsPiece(test.path, test.file, {
        tier: 'other',
        score: SUPPORTING_IMPORTS_SCORE,
        reason: 'the failing test',
      }),
    );
    out.add(
      typeHeaderPiece(test.path, test.file, testMethod.type, { tier: 'test', score: 94, reason: 'the failing test' }),
    );
    out.addAll(
      fieldPieces(test.path, test.file, testMethod.type, { tier: 'test', score: 90, reason: 'fields of the test' }),
    );
    for (const setUp of testMethod.type.methods.filter((method) =>
      method.annotations.some((a) => /^(BeforeEach|Before|BeforeAll|BeforeClass)$/.test(a.name)),
    )) {
      out.add(methodPiece(test.path, test.file, setUp, { tier: 'test', score: 85, reason: 'set-up of the test' }));
    }
    const failingLine = frames.find((frame) => isTestFrame(frame, testClass))?.line;
    // With no main frame the code under test is the primary location; otherwise it is context.
    await codeUnderTest(out, sources, test, testMethod, {
      failingLine,
      message: `${diagnostic.message}\n${failure?.rootCause ?? ''}`,
      primary: mainFrames === 0,
    });
  }
  return out.pieces;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 160);
}

function findTestMethod(test: ProjectType, name: string): { type: JavaType; method: JavaMethod } | undefined {
  for (const type of allTypes(test.file)) {
    const method = type.methods.find((candidate) => candidate.name === name);
    if (method) return { type, method };
  }
  return undefined;
}

interface UnderTestOptions {
  failingLine?: number;
  message: string;
  /** True when no main frame located the failure: the called code is where the fix goes. */
  primary: boolean;
}

/** `FooTest`, `FooTests`, `TestFoo`, `FooIT` -> `Foo`. */
export function classUnderTestName(testName: string): string | undefined {
  const simple = testName.slice(testName.lastIndexOf('.') + 1).split('$')[0]!;
  const stripped = simple.replace(/(?:Tests?|IT|ITCase|Spec)$/, '').replace(/^Test(?=[A-Z])/, '');
  return stripped && stripped !== simple ? stripped : undefined;
}

interface Reached {
  owner: ProjectType;
  method: JavaMethod;
  score: number;
  depth: number;
  via: string;
}

async function codeUnderTest(
  out: PieceSet,
  sources: ProjectSources,
  test: ProjectType,
  start: { type: JavaType; method: JavaMethod },
  options: UnderTestOptions,
): Promise<void> {
  const conventional = classUnderTestName(test.name);
  const named = new Set((options.message.match(/\b[A-Z][\w$]{2,}\b/g) ?? []).map((name) => name.split('$')[0]!));
  const tier = options.primary ? 'primary' : 'other';
  const reached: Reached[] = [];
  const visited = new Set<string>();
  const pending: {
    owner: ProjectType;
    type: JavaType;
    method: JavaMethod;
    score: number;
    depth: number;
    isTest: boolean;
  }[] = [{ owner: test, type: start.type, method: start.method, score: 100, depth: 0, isTest: true }];

  while (pending.length > 0 && reached.length < MAX_UNDER_TEST_METHODS) {
    const current = pending.shift()!;
    for (const [order, receiver] of (
      await receiversOf(sources, current.owner, current.type, current.method)
    ).entries()) {
      if (!receiver.typeName) continue;
      const owner = receiver.onSelf ? current.owner : await resolveOwner(sources, receiver.typeName, current.owner);
      if (!owner || (!receiver.onSelf && scopeOf(owner.path) !== 'main')) continue;
      let score = current.score - (current.depth === 0 ? 10 : 20) - order * 0.1;
      if (current.isTest) {
        if (
          options.failingLine !== undefined &&
          receiver.call.range.startLine <= options.failingLine &&
          options.failingLine <= receiver.call.range.endLine
        )
          score += 15;
        if (owner.type.name === conventional) score += 10;
        if (named.has(owner.type.name)) score += 10;
      }
      // Below the frames of a stack, which locate a failure better than any guess from the test.
      score = Math.min(score, 99);
      for (const target of await methodsNamed(sources, owner, receiver.call.name, receiver.call.arguments.length)) {
        const key = `${target.owner.name}#${target.method.signature}`;
        if (visited.has(key)) continue;
        visited.add(key);
        const isTestCode = scopeOf(target.owner.path) === 'test';
        if (isTestCode) {
          // A helper of the test class: shown as part of the test, and followed.
          out.add(
            methodPiece(target.owner.path, target.owner.file, target.method, {
              tier: 'test',
              score: 80 - current.depth,
              reason: 'a helper of the failing test',
            }),
          );
        } else {
          reached.push({
            owner: target.owner,
            method: target.method,
            score,
            depth: current.depth + 1,
            via: `${current.method.name}`,
          });
        }
        if (current.depth + 1 < MAX_CALL_DEPTH)
          pending.push({
            owner: target.owner,
            type: target.type,
            method: target.method,
            score,
            depth: current.depth + 1,
            isTest: isTestCode,
          });
      }
    }
  }

  const seenTypes = new Set<string>();
  for (const entry of reached) {
    const reason =
      entry.depth === 1
        ? `called by the test (${entry.owner.type.name}.${entry.method.name})`
        : `called by ${entry.via} (${entry.owner.type.name}.${entry.method.name})`;
    out.add(methodPiece(entry.owner.path, entry.owner.file, entry.method, { tier, score: entry.score, reason }));
    if (!seenTypes.has(entry.owner.name)) {
      seenTypes.add(entry.owner.name);
      surroundings(
        out,
        entry.owner.path,
        entry.owner.file,
        entry.owner.type,
        entry.score - 1,
        `code under test: ${entry.owner.type.name}`,
        tier,
      );
      for (const method of entry.owner.type.methods)
        out.add(
          methodPiece(entry.owner.path, entry.owner.file, method, {
            tier: 'other',
            score: restOfClassScore(method, 30),
            reason: `rest of ${entry.owner.type.name}`,
          }),
        );
    }
  }

  // The convention class and classes the message names, when the calls did not reach them.
  const files = await sources.files();
  const extra = [...(conventional ? [conventional] : []), ...named].filter(
    (name) => ![...seenTypes].some((seen) => seen.endsWith(`.${name}`)),
  );
  for (const name of new Set(extra)) {
    const qualified = [...files.keys()].find((candidate) => candidate === name || candidate.endsWith(`.${name}`));
    const owner = qualified && scopeOf(files.get(qualified)!) === 'main' ? await sources.type(qualified) : undefined;
    if (!owner) continue;
    const reason =
      name === conventional ? `class under test (${test.type.name} -> ${name})` : `named in the failure message`;
    surroundings(out, owner.path, owner.file, owner.type, options.primary ? 70 : 35, reason, tier);
    for (const method of owner.type.methods)
      out.add(methodPiece(owner.path, owner.file, method, { tier, score: options.primary ? 60 : 25, reason }));
  }
}

async function resolveOwner(
  sources: ProjectSources,
  typeName: string,
  from: ProjectType,
): Promise<ProjectType | undefined> {
  const qualified = await sources.qualify(typeName, from.file);
  return qualified ? sources.type(qualified) : undefined;
}

/** Methods named `name` in `owner` or its project supertypes, the ones taking `arity` arguments when there are any. */
async function methodsNamed(
  sources: ProjectSources,
  owner: ProjectType,
  name: string,
  arity: number,
): Promise<{ owner: ProjectType; type: JavaType; method: JavaMethod }[]> {
  for (const entry of await sources.hierarchy({ project: owner }, owner.path)) {
    if (!('project' in entry)) continue;
    const methods = entry.project.type.methods.filter((method) => method.name === name);
    if (methods.length === 0) continue;
    const fitting = methods.filter(
      (method) => method.parameters.length === arity || method.parameters.at(-1)?.type.endsWith('...'),
    );
    return (fitting.length > 0 ? fitting : methods).map((method) => ({
      owner: entry.project,
      type: entry.project.type,
      method,
    }));
  }
  return [];
}

/**
 * The receivers of a method's calls, with the member types of the project types the method
 * names (by simple name: in its text, or as a field type of its class) followed where a
 * chain needs them. Those types are parsed only when a chain asks for one: the receivers
 * are found again with each newly asked type until none is asked, which gives what
 * parsing every named type first would give (a lookup answers only from the types it
 * asked for), without parsing the twenty types a long test method names and no chain
 * follows (jsoup: 18 of 27 files of a prompt, 0.3 s cold).
 */
async function receiversOf(sources: ProjectSources, owner: ProjectType, type: JavaType, method: JavaMethod) {
  const named = new Set([
    ...(method.text.match(/\b[A-Z][\w$]*\b/g) ?? []),
    ...fieldsOf(owner.type).map((field) => rawTypeName(field.type)),
  ]);
  const known = new Map<string, ProjectType>([[owner.type.name, owner]]);
  const tried = new Set<string>([owner.type.name]);
  for (;;) {
    const asked = new Set<string>();
    const memberType = (typeName: string, member: string, argumentCount?: number) => {
      const name = rawTypeName(typeName);
      const found = known.get(name);
      if (!found) {
        if (named.has(name) && !tried.has(name)) asked.add(name);
        return undefined;
      }
      if (argumentCount === undefined) return fieldsOf(found.type).find((field) => field.name === member)?.type;
      const declared = found.type.methods.find(
        (candidate) => candidate.name === member && candidate.parameters.length === argumentCount,
      );
      return declared && returnTypeOf(declared);
    };
    const receivers = callReceivers(method, type, { memberType });
    if (asked.size === 0) return receivers;
    for (const name of asked) {
      tried.add(name);
      const qualified = await sources.qualify(name, owner.file);
      const found = qualified ? await sources.type(qualified) : undefined;
      if (found) known.set(name, found);
    }
  }
}

export type { PieceMeta };
