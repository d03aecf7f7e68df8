import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { type HeaderMap, withoutOriginBound } from './header-map.js';
import type { RangeResponse, RangeSend } from './range-response.js';
import { socketHttpGet } from './socket-http-get.js';

/** As many redirects as fetch follows. */
const maxRedirects = 20;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/**
 * Ports fetch refuses to connect to (the Fetch standard's "bad ports": mail, SSH, IRC…), so a
 * URL or a redirect cannot aim requests at a service that is not HTTP.
 */
const badPorts = new Set(
  [
    1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
    103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
    512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
    995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
    6669, 6679, 6697, 10080,
  ].map(String),
);

/**
 * A {@link RangeSend} through `node:http` / `node:https` for the object `label` names (each
 * redirect's target told to `onRedirect`, whose secrets errors must not show): each
 * GET follows redirects as fetch does (up to 20, http(s) only, no credentials carried to another
 * origin, never to a port fetch blocks), and its body is the socket's chunks as they arrive (fetch's web-stream pump costs
 * more CPU than the whole scan behind it). Network errors come as Node raises them, with their
 * `code`; a compressed body, which was asked not to be sent and would make byte ranges
 * meaningless, is `E_REMOTE_FAILED`.
 *
 * @example
 * ```ts
 * const url = 'https://logs.example.com/a.log';
 * const reply = await nodeHttpSend(url)(url, new Map([['range', 'bytes=0-99']]), signal);
 * await reply.pump((chunk) => chunk.length > 0);
 * ```
 */
export function nodeHttpSend(
  label: string,
  onRedirect: (location: string) => void = () => undefined,
): RangeSend {
  return (url, headers, signal) => follow({ label, onRedirect }, url, headers, signal);
}

async function follow(
  { label, onRedirect }: { label: string; onRedirect: (location: string) => void },
  url: string,
  headers: HeaderMap,
  signal: AbortSignal,
): Promise<RangeResponse> {
  let target = new URL(url);
  let sent = headers;
  for (let redirects = 0; ; redirects++) {
    if (badPorts.has(target.port))
      throw new SpoolforgeError('E_REMOTE_FAILED', `${label}: bad port`);
    const reply = await send(label, target, sent, signal);
    const location = reply.headers.get('location');
    if (!redirectStatuses.has(reply.status) || location === null) return identityBody(label, reply);
    await reply.cancel();
    const next = new URL(location, target);
    // Its query may carry a signature that a later error could quote.
    onRedirect(next.href);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw redirectFailure(label, `a redirect to a ${next.protocol} URL`);
    }
    if (next.username || next.password)
      throw redirectFailure(label, 'a redirect to a URL with credentials');
    if (redirects === maxRedirects)
      throw redirectFailure(label, `more than ${maxRedirects} redirects`);
    if (next.origin !== target.origin) sent = withoutOriginBound(sent);
    target = next;
  }
}

type Request = typeof import('node:http').request;
/** Loaded once each, on first use: node:https (and TLS) only for https URLs. */
const transports = new Map<string, Promise<Request>>();

function requestOf(protocol: string): Promise<Request> {
  let request = transports.get(protocol);
  if (!request) {
    request = (protocol === 'https:' ? import('node:https') : import('node:http')).then(
      (transport) => transport.request,
    );
    transports.set(protocol, request);
  }
  return request;
}

async function get(target: URL, headers: HeaderMap, signal: AbortSignal): Promise<IncomingMessage> {
  const request = await requestOf(target.protocol);
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { headers: Object.fromEntries(headers) });
    // Aborting destroys the request only until its body ends, when its socket may go back to
    // the pool to serve another; without an error, which would reach a socket nobody watches.
    const abort = () => outgoing.destroy();
    const forget = () => signal.removeEventListener('abort', abort);
    signal.addEventListener('abort', abort, { once: true });
    outgoing.on('close', () => {
      forget();
      // Destroyed without an error before its response (an abort): no 'error' comes.
      reject(signal.reason);
    });
    outgoing.on('error', reject);
    outgoing.on('response', (message) => {
      message.on('end', forget);
      // A failure mid-body reaches whoever reads the body; one after that is of no interest.
      message.on('error', () => undefined);
      resolve(message);
    });
    outgoing.end();
  });
}

/**
 * A plain `http:` URL is read over a socket of its own (large reads into slabs, a fraction of
 * `node:http`'s CPU per byte), unless Node is told to use a proxy from the environment; https
 * through `node:https`.
 */
async function send(
  label: string,
  target: URL,
  headers: HeaderMap,
  signal: AbortSignal,
): Promise<RangeResponse> {
  if (target.protocol === 'http:' && !usesEnvironmentProxy()) {
    return socketHttpGet(label, target, headers, signal);
  }
  return replyOf(await get(target, headers, signal));
}

function usesEnvironmentProxy(): boolean {
  return process.env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');
}

/** `reply`, unless its body is compressed: asked not to be, it would make ranges meaningless. */
async function identityBody(label: string, reply: RangeResponse): Promise<RangeResponse> {
  const encoding = reply.headers.get('content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') {
    await reply.cancel();
    throw new SpoolforgeError(
      'E_REMOTE_FAILED',
      `${label}: the server sent a ${encoding}-encoded body although asked for identity`,
    );
  }
  return reply;
}

function replyOf(message: IncomingMessage): RangeResponse {
  const distinct = message.headersDistinct;
  return {
    status: message.statusCode ?? 0,
    statusText: message.statusMessage ?? '',
    headers: { get: (name) => distinct[name.toLowerCase()]?.join(', ') ?? null },
    pump: (onChunk) => pump(message, onChunk),
    chunks: () => message,
    cancel: async () => {
      message.destroy();
    },
  };
}

/**
 * The body in flowing mode, each chunk handed over from its `'data'` event: no stream buffering,
 * no promise per chunk, and the socket is never paused and resumed between chunks, as a
 * paused-mode reader (an async iterator) makes it for every chunk past the stream's
 * highWaterMark.
 */
function pump(message: IncomingMessage, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      message.off('data', onData);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      let more: boolean;
      try {
        more = onChunk(chunk);
      } catch (error) {
        message.destroy();
        settle(error);
        return;
      }
      if (!more) {
        message.destroy();
        settle(undefined);
      }
    };
    message.on('data', onData);
    // An end resolves; an error or a close before the end (a dropped connection) rejects.
    finished(message, (error) => settle(error ?? undefined));
  });
}

function redirectFailure(label: string, what: string): SpoolforgeError {
  return new SpoolforgeError('E_REMOTE_FAILED', `${label}: the server answered with ${what}`);
}
