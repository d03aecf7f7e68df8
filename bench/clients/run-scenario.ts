// Runs one client through one scripted conversation: starts the scripted model, writes the
// client's config, runs it headless under a time limit, and reports what the model was sent.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anthropicStreamWire } from './anthropic-stream-wire.js';
import { type ClientName, clientCommand, type ServerCommand } from './client-commands.js';
import { geminiStreamWire } from './gemini-stream-wire.js';
import type { InstalledClients } from './install-clients.js';
import {
  type ApiWire,
  type ModelReply,
  type ModelTurn,
  type SeenResult,
  startModelServer,
} from './model-server.js';
import { responsesStreamWire } from './responses-stream-wire.js';

/** One tool call the scripted model makes: a tool's own name and its arguments. */
export interface ScriptStep {
  tool: string;
  /** The arguments, from the result of the step before; undefined ends the script there. */
  args: (previous: SeenResult | undefined) => Record<string, unknown> | undefined;
}

/** A conversation to run. */
export interface Scenario {
  id: string;
  client: ClientName;
  /** The MCP server the client is given (the proxy, or the server itself). */
  server: ServerCommand;
  /** What it shows: the row label in the table. */
  label: string;
  steps: ScriptStep[];
  timeoutSeconds: number;
  codexOmits?: 'required' | 'approval';
  /** Checks what the run did beyond what the model saw (what an upstream tool received): a verdict line. */
  check?: (calls: ModelCall[]) => Promise<string>;
}

/** A tool call the scripted model made, by step. */
export type ModelCall = Extract<ModelReply, { call: unknown }>['call'];

/** What the model was sent as one tool result. */
export interface ResultView {
  step: number;
  tool: string;
  /** Bytes of the result item as the client sent it (JSON). */
  bytes: number;
  text: string;
  raw: unknown;
}

/** The outcome of a scenario. */
export interface ScenarioOutcome {
  scenario: Scenario;
  exitCode: number | null;
  timedOut: boolean;
  seconds: number;
  /** Each step's result, as the model last saw it. */
  results: ResultView[];
  /** What the model answered last (the script's final text, if it got there). */
  finalReply: ModelReply | undefined;
  /** The client's config, as written. */
  config: string;
  stdout: string;
  stderr: string;
  unknownPaths: string[];
  /** The tool calls the model made, by step (a step asked again keeps its last). */
  calls: ModelCall[];
  /** The scenario's own check, if it has one. */
  check: string | undefined;
}

const wires: Record<ClientName, ApiWire> = {
  claude: anthropicStreamWire,
  codex: responsesStreamWire,
  gemini: geminiStreamWire,
};

/** The offered tool for a server tool's own name: `mcp__files__x`, `files.x`, `x`… */
const offered = (turn: ModelTurn, base: string) =>
  turn.tools.find((name) => name === base || new RegExp(`[_.]${base}$`).test(name));

/** The scripted model: the scenario's steps in order, then a text that closes the run. */
function scriptOf(scenario: Scenario) {
  return (turn: ModelTurn): ModelReply => {
    const step = scenario.steps[turn.results.length];
    const previous = turn.results.at(-1);
    const args = step?.args(previous);
    if (!step || !args) return { text: `done after ${turn.results.length} tool results` };
    const name = offered(turn, step.tool);
    if (!name) return { text: `no tool ${step.tool} among ${turn.tools.join(', ')}` };
    return { call: { name, arguments: args } };
  };
}

/**
 * Runs `scenario` with its client, one at a time (the clients are heavy), and writes the
 * client's output and the requests' results under `outDirectory`.
 */
export async function runScenario(options: {
  scenario: Scenario;
  clients: InstalledClients;
  workDirectory: string;
  outDirectory: string;
}): Promise<ScenarioOutcome> {
  const { scenario } = options;
  const model = await startModelServer({
    wires: [wires[scenario.client]],
    script: scriptOf(scenario),
    jsonAnswer: JSON.stringify({ reasoning: 'scripted', next_speaker: 'user' }),
  });
  const home = join(options.outDirectory, 'home');
  await mkdir(home, { recursive: true });
  const command = await clientCommand(scenario.client, {
    clients: options.clients,
    modelUrl: model.url,
    server: scenario.server,
    home,
    cwd: options.workDirectory,
    prompt: 'Find the NEEDLE lines in the file and report them.',
    ...(scenario.codexOmits ? { codexOmits: scenario.codexOmits } : {}),
  });
  const started = performance.now();
  const child = spawn(command.command, command.args, {
    cwd: options.workDirectory,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  // Bounded: a client echoing a 30 MB result must not fill this process.
  const keep = (text: string, more: string) => (text.length > 1_000_000 ? text : text + more);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout = keep(stdout, chunk.toString('utf8'));
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = keep(stderr, chunk.toString('utf8'));
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, scenario.timeoutSeconds * 1000);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
  clearTimeout(timer);
  // The client's MCP server and its children go with it.
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {}
  await model.close();
  const seconds = (performance.now() - started) / 1000;
  const last = model.requests.at(-1);
  const results = (last?.turn.results ?? []).map((result, step) => ({
    step,
    tool: scenario.steps[step]?.tool ?? '?',
    bytes: Buffer.byteLength(JSON.stringify(result.raw)),
    text: result.text,
    raw: result.raw,
  }));
  const calls: ModelCall[] = [];
  for (const request of model.requests) {
    if ('call' in request.reply) calls[request.turn.results.length] = request.reply.call;
  }
  const outcome: ScenarioOutcome = {
    scenario,
    exitCode,
    timedOut,
    seconds,
    results,
    finalReply: last?.reply,
    config: command.config,
    stdout,
    stderr,
    unknownPaths: model.unknown,
    calls,
    check: await scenario.check?.(calls),
  };
  await writeFile(join(options.outDirectory, 'stdout.txt'), stdout);
  await writeFile(join(options.outDirectory, 'stderr.txt'), stderr);
  // What the model saw, cut to 4 KB a result: enough to read the shape.
  const shapes = results.map((result) => ({
    step: result.step,
    tool: result.tool,
    bytes: result.bytes,
    head: JSON.stringify(result.raw).slice(0, 4000),
  }));
  await writeFile(join(options.outDirectory, 'results.json'), JSON.stringify(shapes, null, 2));
  // And each result's text whole, up to 1 MB: where and how a client cut it.
  for (const result of results) {
    await writeFile(
      join(options.outDirectory, `result-${result.step + 1}.txt`),
      result.text.slice(0, 1_000_000),
    );
  }
  await writeFile(
    join(options.outDirectory, 'tools.json'),
    JSON.stringify(model.requests[0]?.tools ?? null, null, 2),
  );
  return outcome;
}
