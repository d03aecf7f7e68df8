import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI, exactly as `bin.spoolforge` runs it. */
export const cliPath = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CommandResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a command to completion, optionally feeding `input` on standard input. The locale is C
 * unless given (GNU grep folds case beyond ASCII only in a UTF-8 locale).
 */
export function runCommand(
  command: string,
  args: string[],
  input?: Uint8Array,
  locale = 'C',
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, LC_ALL: locale } });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => {}); // a command may exit before reading all its input
    child.stdin.end(input ?? Buffer.alloc(0));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString() }),
    );
  });
}

/** Runs `spoolforge ...args`. */
export function runCli(args: string[], input?: Uint8Array): Promise<CommandResult> {
  return runCommand(process.execPath, [cliPath, ...args], input);
}

/** True when `command --version` runs and mentions GNU (the differential spec needs GNU tools). */
export function hasGnu(command: string): boolean {
  const result = spawnSync(command, ['--version']);
  return result.status === 0 && /GNU/.test(result.stdout.toString());
}

/** Runs `tasks` with at most `limit` at a time, keeping results in order. */
export async function inParallel<T>(tasks: (() => Promise<T>)[], limit = 4): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}
