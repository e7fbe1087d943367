/**
 * One agent session: the model moves through understand -> collect -> fix (toolbox.ts),
 * one tool call per model call, until a fix passes, it stops itself, or a guard stops
 * it. The prompt is one conversation that only grows (model/prompts/agent.ts): each call
 * and its answer are appended, the answer ending with the state and the calls left, so a
 * server's prompt cache reuses everything sent before.
 *
 * Calls come natively (the server's tool calls) or as JSON in the text; either way they
 * go through the middleware, which corrects names and arguments and says so in one line.
 * Guards: a repeated call gets the earlier answer and a warning (three repeats end the
 * session), two unreadable replies in a row end it, and so do the step limit, the
 * deadline and a build budget spent on fixes that did not pass.
 */
import type { AgentToolDescription, LastCall } from '../../model/prompts/index.js';
import { coerceArguments, describeCorrections, resolveToolName } from './middleware.js';
import { callKey, parseAgentReply } from './protocol.js';
import {
  allToolNames,
  describeParameters,
  isStateTool,
  signatureOf,
  STATE_TOOLS,
  toolSpec,
  toolsAllowedIn,
} from './toolbox.js';
import type { Move } from './tools/support/state-tool.js';
import { fixCandidates } from './tools/write-fix.js';
import {
  ToolCallingRefused,
  type AgentStop,
  type AgentStep,
  type AgentModelReply,
  type TurnMemory,
  type AgentSessionInput,
  type AgentSessionResult,
} from './session-types.js';
import {
  MAX_TOOL_OUTPUT_CHARS,
  type AgentState,
  type AgentTool,
  type AgentToolContext,
  type ToolResult,
} from '../../plugins/contracts.js';
export {
  ToolCallingRefused,
  type AgentStop,
  type AgentStep,
  type FixOutcome,
  type FixTrial,
  type AgentModelReply,
  type TurnMemory,
  type AgentSessionInput,
  type AgentSessionResult,
} from './session-types.js';

const MAX_REPEATS = 3;
const MAX_UNREADABLE_IN_A_ROW = 2;
const STATE_NAMES: Record<AgentState, string> = {
  understand: 'understanding the failure',
  collect: 'collecting what the fix needs',
  fix: 'fixing',
};

export async function runAgentSession(input: AgentSessionInput): Promise<AgentSessionResult> {
  const everyTool = allToolNames(input.tools);
  const memory: TurnMemory = {
    mode: input.mode,
    state: 'understand',
    facts: [],
    fixesTried: [],
    tools: everyTool.map((name) => describe(name, input.tools)),
    opening: { state: 'understand', tools: toolsAllowedIn('understand', input.tools), stepsLeft: input.maxSteps },
    exchanges: [],
    stepsLeft: input.maxSteps,
  };
  const steps: AgentStep[] = [];
  const toolCalls: Record<string, number> = {};
  const answered = new Map<string, string>();
  const log: string[] = input.log ?? [];
  let repeats = 0;
  let unreadableInARow = 0;
  let modelCalls = 0;
  let corrections = 0;
  let modeNote: string | undefined;
  /** Whether `memory.last` was a reading tool, whose output becomes a gathered fact once the next call comes. */
  let lastIsFact = false;
  /** What the model wrote for the call being answered (text mode): sent back as its own turn. */
  let said: string | undefined;

  const end = (stop: AgentStop): AgentSessionResult => ({
    stop,
    steps,
    modelCalls,
    toolCalls,
    corrections,
    mode: memory.mode,
    ...(modeNote ? { modeNote } : {}),
    log,
    ...(memory.hypothesis ? { hypothesis: memory.hypothesis } : {}),
  });
  const remember = (last: LastCall, isFact: boolean) => {
    if (memory.last && lastIsFact)
      memory.facts.push({
        call: `${memory.last.tool} ${JSON.stringify(memory.last.args)}`,
        output: memory.last.result,
      });
    memory.last = last;
    memory.exchanges.push({ ...last, ...(said !== undefined ? { said } : {}) });
    lastIsFact = isFact;
    log.push(`### mvnx answered\n${last.result}`);
  };
  const count = (tool: string) => (toolCalls[tool] = (toolCalls[tool] ?? 0) + 1);

  while (steps.length < input.maxSteps) {
    if (input.deadline !== undefined && Date.now() > input.deadline) return end('time-limit');
    const allowed = toolsAllowedIn(memory.state, input.tools);
    memory.stepsLeft = input.maxSteps - steps.length;
    // The answer to the last call ends with where the session now stands; fixed from here on.
    const latest = memory.exchanges.at(-1);
    if (latest && !latest.after) latest.after = { state: memory.state, tools: allowed, stepsLeft: memory.stepsLeft };
    let reply: AgentModelReply;
    try {
      reply = await ask(input, memory, everyTool, log, modelCalls === 0 && log.length === 0);
    } catch (error) {
      if (!(error instanceof ToolCallingRefused) || memory.mode === 'text') throw error;
      memory.mode = 'text';
      modeNote = error.message;
      log.push(`### native tool calls refused: ${error.message}; going on with JSON in the text`);
      continue;
    }
    modelCalls++;
    said = memory.mode === 'text' && reply.text.trim() !== '' ? reply.text : undefined;
    log.push(`### model (step ${steps.length + 1}, ${memory.state})\n${renderReply(reply)}`);
    const parsed = interpret(reply);
    input.onStep?.(
      parsed.kind === 'call' ? `${parsed.tool}` : parsed.kind === 'patch' ? 'a fix' : 'an unreadable answer',
    );

    if (parsed.kind === 'unreadable') {
      unreadableInARow++;
      steps.push({ state: memory.state, tool: '(unreadable)', ok: false });
      if (unreadableInARow >= MAX_UNREADABLE_IN_A_ROW) return end('unreadable');
      remember(
        {
          tool: '(no tool call)',
          args: {},
          result: `I could not read a tool call in your answer (${parsed.why}). ${memory.mode === 'text' ? 'Answer with one JSON object, for example {"tool": "read_range", "args": {"file": "src/main/java/App.java", "start": 1}}.' : 'Call one of the tools.'}`,
        },
        false,
      );
      continue;
    }
    unreadableInARow = 0;

    let tool: string;
    let rawArgs: Record<string, unknown>;
    const notes: string[] = [];
    if (parsed.kind === 'patch') {
      tool = 'write_fix';
      rawArgs = {};
    } else {
      const resolution = resolveToolName(parsed.tool, allToolNames(input.tools));
      if ('unknown' in resolution) {
        steps.push({ state: memory.state, tool: parsed.tool, ok: false });
        const guesses =
          resolution.candidates.length > 0 ? ` (did you mean ${resolution.candidates.join(' or ')}?)` : '';
        remember(
          {
            tool: parsed.tool,
            args: parsed.args,
            result: `There is no tool named ${parsed.tool}${guesses}. You can use: ${allowed.join(', ')}.`,
          },
          false,
        );
        continue;
      }
      tool = resolution.tool;
      rawArgs = parsed.args;
      if (resolution.correction) notes.push(resolution.correction);
      if (parsed.note) notes.push(parsed.note);
    }
    if (!allowed.includes(tool) && parsed.kind !== 'patch') {
      steps.push({ state: memory.state, tool, ok: false });
      const corrected = describeCorrections(notes);
      remember(
        {
          tool,
          args: rawArgs,
          result: `${corrected ? `${corrected}\n` : ''}${tool} cannot be used while ${STATE_NAMES[memory.state]}. You can use: ${allowed.join(', ')}.`,
        },
        false,
      );
      continue;
    }
    const signature = signatureOf(tool, input.tools)!;
    const coerced = await coerceArguments(signature, rawArgs, input.context.view);
    notes.push(...coerced.corrections);
    if (notes.length > 0) corrections++;
    const args = coerced.args;
    const prefix = describeCorrections(notes);
    const withNote = (text: string) => (prefix ? `${prefix}\n${text}` : text);
    count(tool);

    if (tool === 'write_fix') {
      const { candidates, note } = fixCandidates(
        args,
        parsed.kind === 'patch' ? parsed.text : reply.text,
        input.maxCandidates,
      );
      if (candidates.length === 0) {
        steps.push({ state: memory.state, tool, ok: false });
        remember(
          {
            tool,
            args: {},
            result: withNote(
              `write_fix needs the fix: as "patch"${memory.mode === 'text' ? ', or as a fenced block after the JSON' : ''}.`,
            ),
          },
          false,
        );
        continue;
      }
      const trial = await input.tryFixes(candidates);
      steps.push({ state: memory.state, tool, ok: trial.verified !== undefined });
      const step = steps.length;
      trial.outcomes.forEach((outcome, index) => {
        memory.fixesTried.push({
          summary: `step ${step}, fix ${index + 1}${outcome.files.length > 0 ? ` (${outcome.files.join(', ')})` : ''}`,
          outcome: outcome.detail,
        });
      });
      const lines = trial.outcomes.map((outcome, index) => `Fix ${index + 1}: ${outcome.detail}`);
      const shownArgs = candidates.length === 1 ? { patch: candidates[0] } : { patches: candidates };
      if (trial.verified !== undefined) {
        remember({ tool, args: shownArgs, result: withNote([...lines, note].filter(Boolean).join('\n')) }, false);
        return end('fix-verified');
      }
      memory.state = 'fix';
      const next =
        trial.buildsLeft > 0
          ? 'None passed. Correct the fix and call write_fix again, or collect_more_information, or discard_hypothesis.'
          : 'None passed, and the budget allows no more builds.';
      remember({ tool, args: shownArgs, result: withNote([...lines, note, next].filter(Boolean).join('\n')) }, false);
      if (trial.buildsLeft <= 0) return end('build-budget');
      continue;
    }
    const stateTool = isStateTool(tool) ? STATE_TOOLS[tool] : undefined;
    if (stateTool && 'move' in stateTool) {
      const from = memory.state;
      const moved: Move = stateTool.move(args, memory);
      steps.push({ state: from, tool, ok: moved.ok });
      remember({ tool, args, result: withNote(moved.answer) }, false);
      if (moved.stop) return end(moved.stop);
      continue;
    }

    const key = callKey(tool, args);
    const earlier = answered.get(key);
    if (earlier !== undefined) {
      repeats++;
      steps.push({ state: memory.state, tool, ok: false });
      if (repeats >= MAX_REPEATS) return end('loop-guard');
      remember(
        {
          tool,
          args,
          result: withNote(
            `You already called ${tool} with these arguments; the answer is the same:\n${earlier}\nUse it, or do something else.`,
          ),
        },
        false,
      );
      continue;
    }
    // A name that fits several declarations, or none, is answered without running the tool.
    const result =
      coerced.answer !== undefined
        ? { ok: false, output: coerced.answer }
        : await runTool(
            input.tools.find((candidate) => candidate.name === tool)!,
            args,
            input.context,
          );
    steps.push({ state: memory.state, tool, ok: result.ok });
    // Only answers to reading tools repeat; the build may change between two run_tests.
    if (tool !== 'run_tests') answered.set(key, result.output);
    remember({ tool, args, result: withNote(result.output) }, true);
  }
  return end('step-limit');
}

/** One turn; native mode offers every tool, always in the same order, so the tool definitions never change. */
async function ask(
  input: AgentSessionInput,
  memory: TurnMemory,
  offered: string[],
  log: string[],
  first: boolean,
): Promise<AgentModelReply> {
  const messages = input.turn(memory);
  if (first) log.push(messages.map((message) => `### ${message.role}\n${message.content}`).join('\n\n'));
  const specs =
    memory.mode === 'native'
      ? offered.map((name) => {
          const tool = signatureOf(name, input.tools)!;
          return toolSpec(name, tool.description, tool.parameters);
        })
      : undefined;
  return input.chat(messages, specs);
}

function describe(name: string, tools: readonly AgentTool[]): AgentToolDescription {
  const tool = signatureOf(name, tools)!;
  return { name, description: tool.description, parameters: describeParameters(tool.parameters), states: tool.states };
}

type Interpreted =
  | { kind: 'call'; tool: string; args: Record<string, unknown>; note?: string }
  | { kind: 'patch'; text: string }
  | { kind: 'unreadable'; why: string };

/** A native tool call first; the text (JSON or a bare patch) when the model wrote its call there. */
function interpret(reply: AgentModelReply): Interpreted {
  const [call, ...more] = reply.toolCalls ?? [];
  if (call) {
    const notes = [
      ...(more.length > 0 ? [`one tool call per answer: only ${call.name} was run`] : []),
      ...(call.rawArguments !== undefined ? ['the arguments were not a JSON object and were left out'] : []),
    ];
    return {
      kind: 'call',
      tool: call.name,
      args: call.arguments,
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    };
  }
  return parseAgentReply(reply.text);
}

function renderReply(reply: AgentModelReply): string {
  const calls = (reply.toolCalls ?? []).map(
    (call) => `[tool call] ${call.name} ${call.rawArguments ?? JSON.stringify(call.arguments)}`,
  );
  return [reply.text, ...calls].filter((part) => part.trim() !== '').join('\n');
}

async function runTool(tool: AgentTool, args: Record<string, unknown>, context: AgentToolContext): Promise<ToolResult> {
  try {
    const result = await tool.run(args, context);
    return result.output.length > MAX_TOOL_OUTPUT_CHARS
      ? { ok: result.ok, output: `${result.output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n... (cut)` }
      : result;
  } catch (error) {
    return { ok: false, output: `${tool.name} failed: ${(error as Error).message.split('\n')[0]}` };
  }
}
