import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** The most a response head may take, status line and headers (as many servers allow). */
const maxHeadBytes = 64 * 1024;
const headEnd = Buffer.from('\r\n\r\n');
const statusLine = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?$/;
const headerLine = /^([!#$%&'*+.^`|~\w-]+):[\t ]*(.*?)[\t ]*$/;

/**
 * A response's status and headers (lower-case names, repeated ones joined with `, `).
 */
export interface ResponseHead {
  status: number;
  statusText: string;
  headers: Map<string, string>;
}

/**
 * A parsed head and how its body is framed: by `Content-Length` (`contentLength`), by the end of
 * the connection, or in chunks; `rest` is what came after the head.
 */
export interface ParsedHead {
  head: ResponseHead;
  framing: 'length' | 'close' | 'chunked';
  contentLength: number | undefined;
  rest: Uint8Array;
}

/**
 * The response head at the start of `bytes`, or `undefined` while it is incomplete; interim
 * `1xx` heads are skipped. A head past 64 KiB, a malformed status or header line (folded lines
 * too), and conflicting or invalid `Content-Length`s are `E_REMOTE_FAILED`, as a strict HTTP
 * parser refuses them. 204 and 304 have no body.
 *
 * @example
 * ```ts
 * const parsed = readResponseHead(Buffer.from('HTTP/1.1 206 Partial Content\r\nContent-Length: 3\r\n\r\nabc'));
 * // parsed?.head.status === 206, parsed?.contentLength === 3
 * ```
 */
export function readResponseHead(bytes: Buffer): ParsedHead | undefined {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(headEnd, start);
    if (end < 0) {
      if (bytes.length - start > maxHeadBytes) throw failure('a response head over 64 KiB');
      return undefined;
    }
    if (end - start > maxHeadBytes) throw failure('a response head over 64 KiB');
    const head = parseHead(bytes.toString('latin1', start, end));
    start = end + headEnd.length;
    if (head.status >= 100 && head.status < 200) {
      if (head.status === 101) throw failure('a protocol switch');
      continue;
    }
    return { head, ...framingOf(head), rest: bytes.subarray(start) };
  }
}

function parseHead(text: string): ResponseHead {
  const [first = '', ...lines] = text.split('\r\n');
  const status = statusLine.exec(first);
  if (!status) throw failure('a malformed status line');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const header = headerLine.exec(line);
    if (!header || /[\0\r\n]/.test(line)) throw failure('a malformed header line');
    const name = (header[1] as string).toLowerCase();
    const value = header[2] as string;
    const earlier = headers.get(name);
    headers.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return { status: Number(status[1]), statusText: status[2] ?? '', headers };
}

function framingOf(head: ResponseHead): Pick<ParsedHead, 'framing' | 'contentLength'> {
  if (head.status === 204 || head.status === 304) return { framing: 'length', contentLength: 0 };
  const coding = head.headers.get('transfer-encoding');
  if (coding !== undefined) {
    // Only chunked, alone: another coding would be a compressed body, which was not asked for.
    if (coding.trim().toLowerCase() !== 'chunked') throw failure(`Transfer-Encoding: ${coding}`);
    return { framing: 'chunked', contentLength: undefined };
  }
  const declared = head.headers.get('content-length');
  if (declared === undefined) return { framing: 'close', contentLength: undefined };
  // Repeated headers were joined: every copy must say the same number.
  const values = new Set(declared.split(',').map((value) => value.trim()));
  const [only] = values;
  if (values.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only)) {
    throw failure('an invalid Content-Length');
  }
  return { framing: 'length', contentLength: Number(only) };
}

function failure(what: string): SpoolforgeError {
  return new SpoolforgeError('E_REMOTE_FAILED', `the server answered with ${what}`);
}
