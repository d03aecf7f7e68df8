// What the benches read from the command line and the machine, and the run's private dist/.
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { repositoryRoot } from './bench-paths.js';
import { parseSize } from './generate-log.js';

/**
 * `--size` (512M, 1G, 4G; default `defaultSize`), `--runs` (medians of that many) and
 * `--results PATH`, where the results JSON goes instead of the bench's own name for it
 * (`npm run bench:all` reads each bench's from there); `extra` adds a bench's own options,
 * whose values come back in `values`.
 */
export function parseBenchOptions(
  defaultSize = '1G',
  extra: NonNullable<ParseArgsConfig['options']> = {},
) {
  const parsed = parseArgs({
    options: {
      ...extra,
      size: { type: 'string', default: defaultSize },
      runs: { type: 'string', default: '3' },
      results: { type: 'string' },
    },
  });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a whole number ≥ 1`);
  return {
    sizeLabel: String(values.size),
    size: parseSize(String(values.size)),
    runs,
    resultsPath: values.results === undefined ? undefined : String(values.results),
    values,
  };
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

/**
 * Refuses to time on a busy machine: throws when the 1-minute load average is at or above
 * `limit` (1 by default), unless `override`, which returns a loud warning for the report
 * instead. Undefined when the machine is quiet.
 *
 * @example
 * ```ts
 * const warning = checkQuietMachine({ override: values['ignore-load'] === true });
 * ```
 */
export function checkQuietMachine(options: { override: boolean; limit?: number }) {
  const limit = options.limit ?? 1;
  const [oneMinute = 0] = loadavg();
  if (oneMinute < limit) return undefined;
  const busy = `the 1-minute load average is ${oneMinute.toFixed(2)} (≥ ${limit}): timings now say little about the code`;
  if (!options.override) {
    throw new Error(`${busy}; wait for a quiet machine, or pass --ignore-load for a smoke run`);
  }
  return `${busy} (--ignore-load)`;
}

/** When, at which commit and on what machine a bench ran, for its results file. */
export function runFacts() {
  return {
    date: new Date().toISOString(),
    commit: firstLine(['git', '-C', repositoryRoot, 'rev-parse', '--short', 'HEAD']),
    machine: { cpu: cpus()[0]?.model, cpus: cpus().length, memoryBytes: totalmem() },
  };
}

/**
 * A new temp directory holding a private copy of dist/, whose bare imports resolve through a
 * node_modules link beside it: the runs take minutes, and a rebuild meanwhile stays out of them.
 */
export async function privateDistCopy(prefix: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  await cp(join(repositoryRoot, 'dist'), join(directory, 'dist'), { recursive: true });
  await symlink(join(repositoryRoot, 'node_modules'), join(directory, 'node_modules'), 'dir');
  return directory;
}
