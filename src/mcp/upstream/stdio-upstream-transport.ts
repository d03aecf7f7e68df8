import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpoolWriterOptions } from '../../spool/spool-writer.js';
import { JsonSpillParser } from './json-spill-parser.js';
import type { SpilledValues } from './spilled-values.js';
import { processStderrRelay } from './stderr-relay.js';
import { StderrTail } from './stderr-tail.js';

/**
 * Options for a {@link StdioUpstreamTransport}.
 *
 * @example
 * ```ts
 * const options: StdioUpstreamTransportOptions = {
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-everything'],
 *   spilled: new SpilledValues(),
 * };
 * ```
 */
export interface StdioUpstreamTransportOptions {
  /** The upstream MCP server's command. */
  command: string;
  args?: readonly string[];
  /**
   * The server's environment. Default: the whole `process.env` of this process — unlike the
   * SDK's stdio transport, which keeps a few variables: whoever started the proxy already chose
   * what it (and so the server behind it) gets, and servers need their API keys — less the
   * variables with which `npx -p PACKAGE` tells npm what to run (`npm_config_package`,
   * `npm_config_call`): a server started with `npx` under a proxy that `npx -p spoolforge`
   * started would run spoolforge's packages instead of its own.
   */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where big values go; see {@link JsonSpillParserOptions.spillBytes}. */
  spilled: SpilledValues;
  /** A string value with more raw bytes is diverted. Default 1 MiB. */
  spillBytes?: number;
  /** A longer message is answered with a JSON-RPC error (the proxy's `--max-result`). Default 1 GiB. */
  maxMessageBytes?: number;
  /**
   * `'inherit'` (default): the server's stderr goes on to this process's stderr (past 1 MiB
   * that stderr has not taken, dropped and counted), and its tail is kept; `'pipe'`: only the
   * tail is kept.
   */
  stderr?: 'inherit' | 'pipe';
  /** How long `close()` waits after ending stdin, then after SIGTERM, before the next step. Default 2 s. */
  closeGraceMs?: number;
  /** Options of the spools big values go to. */
  writer?: SpoolWriterOptions;
}

/**
 * How the upstream server ended.
 *
 * @example
 * ```ts
 * const { code, signal }: UpstreamExit = await transport.exit;
 * ```
 */
export interface UpstreamExit {
  code: number | null;
  signal: string | null;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable | null>;

/**
 * The client side of MCP over stdio, for an upstream server of any output size: it starts the
 * server as a child process and reads its stdout as a stream through a {@link JsonSpillParser},
 * so a result of hundreds of MB arrives with its big values spilled to spools (tokens of
 * `spilled` stand in for them) instead of being one string. The SDK's own stdio transport
 * closes on a message over 10 MiB.
 *
 * @example
 * ```ts
 * const spilled = new SpilledValues();
 * const transport = new StdioUpstreamTransport({ command: 'node', args: ['server.js'], spilled });
 * await client.connect(transport);
 * transport.exit.then(({ code }) => console.error(`upstream exited with ${code}: ${transport.stderrTail()}`));
 * ```
 */
export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Settles when the server has exited and its output is closed. */
  readonly exit: Promise<UpstreamExit>;
  readonly #options: StdioUpstreamTransportOptions;
  readonly #tail = new StderrTail();
  #settleExit: (exit: UpstreamExit) => void = () => undefined;
  #child: Child | undefined;
  #closed = false;
  #parser: JsonSpillParser | undefined;
  /** When the server's stdout last gave a chunk (`performance.now()`). */
  #lastOutputAt = 0;

  constructor(options: StdioUpstreamTransportOptions) {
    this.#options = options;
    this.exit = new Promise((resolve) => {
      this.#settleExit = resolve;
    });
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last 4 KiB or so of the server's stderr, as text. */
  stderrTail(): string {
    return this.#tail.text();
  }

  /** Starts the server; rejects with `E_MCP_UPSTREAM` naming the command if it cannot start. */
  start(): Promise<void> {
    if (this.#child || this.#closed) {
      return Promise.reject(
        new SpoolforgeError('E_MCP_UPSTREAM', 'The upstream transport was already started'),
      );
    }
    const {
      command,
      args = [],
      env = serverEnvironment(),
      cwd,
      stderr = 'inherit',
    } = this.#options;
    const child = spawn(command, [...args], {
      env,
      ...(cwd === undefined ? {} : { cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.#child = child;
    child.stderr.on('data', (chunk: Buffer) => {
      this.#tail.push(chunk);
      if (stderr === 'inherit') processStderrRelay.write(chunk);
    });
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stderr.on('error', () => undefined); // the tail is best effort
    const pumped = this.#pump(child);
    const closed = new Promise<UpstreamExit>((resolve) => {
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    void Promise.all([closed, pumped]).then(([exit]) => {
      this.#child = undefined;
      this.#closed = true;
      this.#settleExit(exit);
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      // Kept for the child's life: an 'error' event with no listener would crash the process.
      child.on('error', (error) => {
        if (spawned) {
          this.onerror?.(new SpoolforgeError('E_MCP_UPSTREAM', error.message, { cause: error }));
          return;
        }
        const message = `Cannot start the upstream MCP server ${JSON.stringify(command)}: ${error.message}`;
        reject(new SpoolforgeError('E_MCP_UPSTREAM', message, { cause: error }));
      });
    });
  }

  /** Writes one message as a line, waiting for the pipe to drain when it is full. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.writableEnded) {
      throw new SpoolforgeError('E_MCP_UPSTREAM', 'The upstream MCP server is not running');
    }
    if (stdin.write(`${JSON.stringify(message)}\n`)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  }

  /**
   * Drops a line the server began and has not added to for `idleMs` (reported through
   * `onerror`), so that the next byte starts a new line: after a request timed out on a torn
   * response, the server's next answer would otherwise be read as the torn line's rest and lost.
   * A line still arriving is left alone.
   */
  async discardStaleLine(idleMs: number): Promise<void> {
    const parser = this.#parser;
    if (!parser?.midLine || performance.now() - this.#lastOutputAt < idleMs) return;
    await parser.discardLine().catch((error: unknown) => this.onerror?.(error as Error));
  }

  /** Ends the server's stdin, then sends SIGTERM after the grace period, then SIGKILL. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const grace = this.#options.closeGraceMs ?? 2_000;
    const exited = this.exit.then(() => true);
    const waited = () =>
      Promise.race([
        exited,
        new Promise<false>((resolve) => setTimeout(resolve, grace, false).unref()),
      ]);
    child.stdin.end();
    if (await waited()) return;
    child.kill('SIGTERM');
    if (await waited()) return;
    child.kill('SIGKILL');
    await exited;
  }

  /** Feeds stdout to the parser one chunk at a time: a chunk waits until its spills are written. */
  async #pump(child: Child): Promise<void> {
    const parser = new JsonSpillParser({
      spilled: this.#options.spilled,
      onmessage: (message) => this.onmessage?.(message),
      onerror: (error) => this.onerror?.(error),
      ...(this.#options.spillBytes === undefined ? {} : { spillBytes: this.#options.spillBytes }),
      ...(this.#options.maxMessageBytes === undefined
        ? {}
        : { maxMessageBytes: this.#options.maxMessageBytes }),
      ...(this.#options.writer === undefined ? {} : { writer: this.#options.writer }),
    });
    this.#parser = parser;
    try {
      for await (const chunk of child.stdout) {
        this.#lastOutputAt = performance.now();
        await parser.write(chunk as Buffer).catch((error: SpoolforgeError) => {
          // A spool that cannot be written (a full disk): the messages it was for answer their
          // requests with the error; the server is fine and goes on being read.
          this.onerror?.(error);
          parser.failLine(error);
        });
      }
    } catch (error) {
      // Its output cannot be read: nothing more can be read safely.
      this.onerror?.(
        SpoolforgeError.isInstance(error)
          ? error
          : new SpoolforgeError('E_IO', 'Cannot read the upstream output', { cause: error }),
      );
      child.stdout.destroy();
      void this.close();
    }
    await parser.end().catch((error: unknown) => this.onerror?.(error as Error));
  }
}

/** `process.env` without what `npx` sets for the command it runs alone (see `env`). */
function serverEnvironment(): NodeJS.ProcessEnv {
  const { npm_config_package: _package, npm_config_call: _call, ...rest } = process.env;
  return rest;
}
