// A scripted model on 127.0.0.1 that speaks the three APIs the MCP clients use (Anthropic
// Messages, OpenAI Responses, Gemini), streams its replies as each API does, and records what
// each client sent: the tool results exactly as the model would have read them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { answerScriptFailure, listenOnLoopback } from '../../examples/support/scripted-model.js';

/** A tool result in a request, as the client put it there. */
export interface SeenResult {
  /** The call it answers. */
  callId: string;
  /** The result item as sent (`tool_result` block, `function_call_output`, `functionResponse`). */
  raw: unknown;
  /** Every string inside `raw`, joined: what a model reads of it. */
  text: string;
}

/** A request that offered tools, parsed: what the script decides on. */
export interface ModelTurn {
  /** The names of the offered tools. */
  tools: string[];
  /** Tool results in the conversation, oldest first. */
  results: SeenResult[];
}

/** What the scripted model answers: one tool call, or a final text. */
export type ModelReply =
  | { call: { name: string; arguments: Record<string, unknown> } }
  | { text: string };

/** How one API spells requests and replies. */
export interface ApiWire {
  name: string;
  /** Whether it answers this path (without the query). */
  matches(path: string): boolean;
  parse(body: Record<string, unknown>): ModelTurn;
  /** The reply as the server-sent events the API streams (`event:`/`data:` lines). */
  stream(reply: ModelReply, body: Record<string, unknown>, index: number): string;
  /** The reply as one JSON body, for a request that does not stream. */
  json(reply: ModelReply, body: Record<string, unknown>, index: number): unknown;
  /** Whether the request streams (a body flag, or the path, as Gemini's `:streamGenerateContent`). */
  streams(path: string, body: Record<string, unknown>): boolean;
  /** The answer to a side request (token counting and the like), or undefined. */
  side?(path: string, body: Record<string, unknown>): unknown;
}

/** One request the server answered. */
export interface RecordedRequest {
  wire: string;
  path: string;
  bytes: number;
  /** The tools it offered, as the client declared them. */
  tools: unknown;
  turn: ModelTurn;
  reply: ModelReply;
}

/** A running scripted model. */
export interface ModelServer {
  url: string;
  /** Every request that offered tools, in order. */
  requests: RecordedRequest[];
  /** Paths it was asked for and did not know (404). */
  unknown: string[];
  close(): Promise<void>;
}

/**
 * Serves `wires` on 127.0.0.1, answering each request that offers tools with `script` and any
 * other (a title, a summary, a classifier) with a short text.
 */
export async function startModelServer(options: {
  wires: ApiWire[];
  script: (turn: ModelTurn) => ModelReply;
  /** The JSON text to answer a request that asks for JSON output with (Gemini's checks). */
  jsonAnswer?: string;
}): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const unknown: string[] = [];
  let index = 0;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '').split('?')[0] ?? '';
    const wire = options.wires.find((candidate) => candidate.matches(path));
    if (!wire || request.method !== 'POST') {
      unknown.push(`${request.method} ${request.url}`);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    try {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      const side = wire.side?.(path, body);
      if (side !== undefined) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(side));
        return;
      }
      const turn = wire.parse(body);
      const asksJson = JSON.stringify(body.generationConfig ?? {}).includes('Schema');
      const reply: ModelReply =
        asksJson && options.jsonAnswer !== undefined
          ? { text: options.jsonAnswer }
          : turn.tools.length > 0
            ? options.script(turn)
            : { text: 'ok' };
      if (turn.tools.length > 0 && !asksJson) {
        requests.push({
          wire: wire.name,
          path,
          bytes: raw.byteLength,
          tools: body.tools,
          turn,
          reply,
        });
      }
      const at = index++;
      if (wire.streams(path, body)) {
        response.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
        });
        response.end(wire.stream(reply, body, at));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(wire.json(reply, body, at)));
    } catch (error) {
      answerScriptFailure(response, error);
    }
  });
  return { ...(await listenOnLoopback(server)), requests, unknown };
}

/** Every string inside a JSON value, joined with newlines. */
export function stringsIn(value: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === 'object')
      for (const item of Object.values(node)) walk(item);
  };
  walk(value);
  return out.join('\n');
}

/** One server-sent event. */
export const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
