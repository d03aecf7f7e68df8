/** What a transport to a child process tells of its end (the stdio upstream transport does). */
export interface ExitReport {
  exit: Promise<{ code: number | null; signal: string | null }>;
  stderrTail(): string;
}

/** How long a closed connection's process is given to report its exit status. */
const exitWait = 1_000;
/** The most of the stderr tail a message quotes. */
const stderrChars = 1_000;

/**
 * How an upstream went away, for a message: `exited with status 3 (stderr: …)`, `was killed by
 * SIGKILL`, or `closed the connection` when its transport knows no process.
 *
 * @example
 * ```ts
 * await describeExit(transport); // 'exited with status 3 (stderr: "panic: out of memory")'
 * ```
 */
export async function describeExit(transport: Partial<ExitReport> | undefined): Promise<string> {
  if (!transport?.exit) return 'closed the connection';
  const timer = new Promise<undefined>((resolve) =>
    setTimeout(() => resolve(undefined), exitWait).unref(),
  );
  const exit = await Promise.race([transport.exit, timer]);
  const how =
    exit === undefined
      ? 'closed the connection'
      : exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with status ${exit.code}`;
  const tail = transport.stderrTail?.().trim() ?? '';
  if (!tail) return `${how} (no stderr)`;
  const shown = tail.length > stderrChars ? `…${tail.slice(-stderrChars)}` : tail;
  return `${how} (stderr: ${JSON.stringify(shown)})`;
}
