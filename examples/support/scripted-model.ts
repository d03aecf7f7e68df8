// A loopback HTTP server that plays the model: the real provider SDK clients talk to it as to
// the real API (examples run offline with it; specs assert on the bodies the clients sent).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool as the model sees it in a request. */
export interface OfferedTool {
  name: string;
  description?: string;
  /** The JSON Schema of its input. */
  parameters: Record<string, unknown>;
}

/** A tool result the request carries back to the model. */
export interface ReturnedResult {
  callId: string;
  text: string;
  isError: boolean;
}

/** A request, provider-neutral: what a script decides on. */
export interface ScriptedTurn {
  tools: OfferedTool[];
  /** Tool results in the request, oldest first. */
  results: ReturnedResult[];
  /** How many requests came before this one. */
  index: number;
  /** Results after the last user message: the current question's (wires that know it). */
  resultsSinceUser?: ReturnedResult[];
  /** The last user message's text (wires that know it). */
  userText?: string;
  /** Every message's text, joined (wires that know it). */
  transcript?: string;
}

/** What the scripted model answers: tool calls, or a final text. */
export type ScriptedReply =
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[] }
  | { text: string };

/** How one provider API spells requests and replies. */
export interface WireFormat {
  /** The request path it answers, e.g. `/v1/chat/completions`, or a pattern of paths. */
  path: string | RegExp;
  parse(body: Record<string, unknown>): Omit<ScriptedTurn, 'index'>;
  format(reply: ScriptedReply, index: number, body: Record<string, unknown>): unknown;
  /**
   * The server-sent events that stream the reply, for a request with `stream: true` (wires
   * without it answer such a request with the whole reply at once).
   */
  stream?(reply: ScriptedReply, index: number, body: Record<string, unknown>): StreamEvent[];
  /**
   * The error body the real API answers with HTTP 400 for a request it rejects (a tool call
   * without its result, a result without its call), or undefined for a valid request.
   */
  reject?(body: Record<string, unknown>): unknown;
}

/** One server-sent event: its `event:` name and its `data:` JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** A running scripted model. */
export interface ScriptedModel {
  /** Base URL (`http://127.0.0.1:PORT`); SDKs take it as `baseURL`. */
  url: string;
  /** Every request body the model answered, in order, as the client sent it. */
  requests: { path: string; body: Record<string, unknown> }[];
  /** The requests it rejected as the real API would, with the error body it answered. */
  rejected: { path: string; body: Record<string, unknown>; error: unknown }[];
  close(): Promise<void>;
}

/**
 * Starts a scripted model on 127.0.0.1 that answers each wire format's path with `script`.
 *
 * @example
 * ```ts
 * const model = await startScriptedModel({ wires: [openAIChatWire], script: investigateLog });
 * const client = new OpenAI({ apiKey: 'offline', baseURL: `${model.url}/v1` });
 * ```
 */
export async function startScriptedModel(options: {
  wires: WireFormat[];
  script: (turn: ScriptedTurn) => ScriptedReply;
}): Promise<ScriptedModel> {
  const requests: ScriptedModel['requests'] = [];
  const rejected: ScriptedModel['rejected'] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '').split('?')[0] ?? '';
    const wire = options.wires.find((candidate) =>
      typeof candidate.path === 'string' ? candidate.path === path : candidate.path.test(path),
    );
    if (!wire || request.method !== 'POST') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const error = wire.reject?.(body);
      if (error !== undefined) {
        rejected.push({ path, body, error });
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const index = requests.filter((earlier) => earlier.path === path).length;
      requests.push({ path, body });
      const reply = options.script({ ...wire.parse(body), index });
      if (body.stream === true && wire.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const { event, data } of wire.stream(reply, index, body)) {
          response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        }
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(wire.format(reply, index, body)));
    } catch (error) {
      answerScriptFailure(response, error);
    }
  });
  return { ...(await listenOnLoopback(server)), requests, rejected };
}

/**
 * Answers a request the script failed on: 400, not 500, since SDKs and clients retry a 500,
 * and a failing script should fail the run at once.
 */
export function answerScriptFailure(response: ServerResponse, error: unknown): void {
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message: String((error as Error).message) } }));
}

/** Starts `server` on 127.0.0.1 at a free port; `close` also ends open connections. */
export async function listenOnLoopback(
  server: Server,
): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `callId` enum a forged tool offers, read from its schema. */
export function callIdsOf(tool: OfferedTool | undefined): string[] {
  const properties = tool?.parameters.properties as Record<string, { enum?: string[] }> | undefined;
  return properties?.callId?.enum ?? [];
}
