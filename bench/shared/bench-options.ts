// What the cli, json and remote benches read from the command line and the machine.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { parseSize } from './generate-log.js';

/** `--size` (512M, 1G, 4G) and `--runs` (medians of that many). */
export function parseBenchOptions() {
  const { values } = parseArgs({
    options: { size: { type: 'string', default: '1G' }, runs: { type: 'string', default: '3' } },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a whole number ≥ 1`);
  return { sizeLabel: values.size, size: parseSize(values.size), runs };
}

/** The first line a tool prints (its version), or `not installed`. */
export function firstLine(argv: string[]): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8' });
  return result.status === 0 ? (result.stdout.split('\n')[0] ?? '').trim() : 'not installed';
}

/** The 1, 5 and 15 minute load averages: a busy machine makes every timing slower. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
