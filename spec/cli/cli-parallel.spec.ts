import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasGnu, runCli, runCommand } from '../helpers/run-cli.js';
import { tempDirectory } from '../helpers/temp-files.js';

// Stubbed, not assigned: restoring a variable that was unset must unset it again.
afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * 65 MiB, no final newline: past the 64 MiB from which scans run on threads when
 * SPOOLFORGE_THREADS asks for more than one (by default, only from 2 GiB).
 */
async function largeLog(): Promise<string> {
  const lines = Array.from({ length: 12_000 }, (_, line) => {
    const level = line % 17 === 0 ? 'ERROR' : line % 3 === 0 ? 'Warn' : 'INFO';
    return `${line} ${level} ${'.'.repeat((line * 31) % 150)} ${line % 1001 === 0 ? 'disk FULL' : 'ok'}`;
  });
  const block = `${lines.join('\n')}\n`;
  const path = join(await tempDirectory(), 'large.log');
  const repeats = Math.ceil((65 * 1024 * 1024) / Buffer.byteLength(block));
  await writeFile(path, `${block.repeat(repeats)}the last line, unterminated`);
  return path;
}

describe.skipIf(!hasGnu('grep'))('CLI counts on worker threads', () => {
  it('prints what GNU grep -c and a one-thread run print', async () => {
    const path = await largeLog();
    vi.stubEnv('SPOOLFORGE_CACHE_DIR', 'off');
    for (const args of [
      ['-c', 'ERROR'],
      ['-c', '-i', 'disk full'],
      ['-c', 'ERROR .*ok$'],
      ['-c', '-v', 'INFO'],
      ['-c', 'no such text'],
    ]) {
      const gnu = await runCommand('grep', ['-a', '-E', ...args, path]);
      vi.stubEnv('SPOOLFORGE_THREADS', '3');
      const parallel = await runCli(['grep', ...args, path]);
      vi.stubEnv('SPOOLFORGE_THREADS', '1');
      const serial = await runCli(['grep', ...args, path]);
      expect(parallel.stdout.toString(), args.join(' ')).toBe(gnu.stdout.toString());
      expect(parallel.status, args.join(' ')).toBe(gnu.status);
      expect(serial.stdout.toString(), args.join(' ')).toBe(gnu.stdout.toString());
    }
  });

  it('prints, on threads, what GNU grep -a prints: line numbers, context, -m', async () => {
    const path = await largeLog();
    vi.stubEnv('SPOOLFORGE_CACHE_DIR', 'off');
    const differences: string[] = [];
    for (const args of [
      ['-n', 'disk FULL'],
      ['-n', '-C', '3', 'disk FULL'],
      ['-n', '-A', '2', '-B', '5', 'disk FULL'],
      ['-A', '4', 'disk FULL'],
      ['-n', '-m', '5', '-C', '3', 'ERROR'],
      ['-n', '-m', '500', '-A', '2', 'disk FULL'],
      ['-m', '3000', 'Warn'],
      ['-n', '-v', '-m', '3', '-B', '1', 'INFO'],
      ['-n', 'ERROR'],
      ['-n', '-C', '1', 'last line'],
      ['-c', '-m', '100000', 'ERROR'],
      ['-n', '-C', '2', 'no such text'],
    ]) {
      const gnu = await runCommand('grep', ['-a', '-E', ...args, path]);
      vi.stubEnv('SPOOLFORGE_THREADS', '3');
      const parallel = await runCli(['grep', ...args, path]);
      if (!parallel.stdout.equals(gnu.stdout) || parallel.status !== gnu.status) {
        differences.push(
          `${args.join(' ')}: ${parallel.stdout.length} vs ${gnu.stdout.length} bytes`,
        );
      }
    }
    expect(differences).toEqual([]);
  });

  it('gives, on threads, what GNU grep -a gives for -w, -x, -o, -l, -L, -q, -H and several files', async () => {
    const path = await largeLog();
    const small = join(await tempDirectory(), 'small.log');
    await writeFile(small, '1 ERROR disk full\nno newline at the end');
    vi.stubEnv('SPOOLFORGE_CACHE_DIR', 'off');
    const differences: string[] = [];
    for (const args of [
      ['-w', '-i', '-c', 'warn'],
      ['-w', '-n', 'FULL'],
      ['-x', '-c', '0 ERROR  ok'],
      ['-x', '-v', '-c', '[0-9]+ INFO .*ok'],
      ['-o', '-n', '-i', 'disk full'],
      ['-o', '-w', '[0-9]+ ERROR'],
      // Without prefixes, each thread hands over the matches themselves.
      ['-o', 'disk [A-Z]+'],
      ['-o', '[0-9]+ ERROR'],
      ['-o', 'RROR'],
      ['-o', 'x*'],
      ['-l', 'disk FULL', small],
      ['-L', 'disk FULL', small],
      ['-L', 'unterminated', small],
      ['-q', 'unterminated'],
      ['-H', '-n', '-m', '3', 'ERROR'],
      ['-c', 'ERROR', small],
      ['-n', '-C', '1', 'disk FULL', small],
    ]) {
      const gnu = await runCommand('grep', ['-a', '-E', ...args, path]);
      vi.stubEnv('SPOOLFORGE_THREADS', '3');
      const parallel = await runCli(['grep', ...args, path]);
      if (!parallel.stdout.equals(gnu.stdout) || parallel.status !== gnu.status) {
        differences.push(
          `${args.join(' ')}: status ${parallel.status} vs ${gnu.status}, ${parallel.stdout.length} vs ${gnu.stdout.length} bytes`,
        );
      }
    }
    expect(differences).toEqual([]);
  });

  it('fails on a bad pattern with one line and exit status 2, before any output', async () => {
    const path = await largeLog();
    vi.stubEnv('SPOOLFORGE_THREADS', '3');
    const result = await runCli(['grep', '-n', '-C', '3', '(unclosed', path]);
    expect(result.status).toBe(2);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toMatch(/^spoolforge: Invalid regular expression[^\n]*\n$/);
  });

  it('indexes the file on threads for a far line, and count and lines use that index', async () => {
    const path = await largeLog();
    vi.stubEnv('SPOOLFORGE_CACHE_DIR', await tempDirectory());
    vi.stubEnv('SPOOLFORGE_THREADS', '3');
    const wc = Number((await runCommand('wc', ['-l', path])).stdout.toString().split(' ')[0]);
    // Far into the file with no index yet: the whole index is built on threads first.
    const sed = await runCommand('sed', ['-n', `${wc - 5},${wc + 1}p`, path]);
    const lines = await runCli(['lines', String(wc - 5), String(wc + 1), path]);
    expect(lines.stdout.equals(sed.stdout)).toBe(true);
    const middle = await runCommand('sed', ['-n', '400000,400002p', path]);
    expect((await runCli(['lines', '400000', '400002', path])).stdout.equals(middle.stdout)).toBe(
      true,
    );
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${wc + 1}\n`);
    const stat = JSON.parse((await runCli(['stat', path])).stdout.toString());
    expect(stat).toMatchObject({ lines: wc + 1, kind: 'text' });
  });
});
