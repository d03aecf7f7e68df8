import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compareFiles, median, type RunResult, runCommand, runFailure } from '../shared/measure.js';
import { shellCommand } from '../shared/shell-command.js';
import type { Operation, ToolCommand, ToolRole } from './operations.js';
import type { ResultRow } from './result-row.js';

const mebibyte = 1024 * 1024;

/**
 * Where and how an operation's commands run.
 *
 * @example
 * ```ts
 * const context: OperationRunContext = { runs: 3, workDirectory, environment, gnuTimePath };
 * ```
 */
export interface OperationRunContext {
  runs: number;
  /** Holds each command's first output (`<index>-<tool>.out`) until the run ends. */
  workDirectory: string;
  environment: NodeJS.ProcessEnv;
  gnuTimePath: string | undefined;
}

/**
 * Readies the index cache a command asks for: an `empty` one is removed and made again; a
 * `filled` one must hold what the command before it saved, or the "second call" would be
 * another first call, which is returned as a problem.
 */
async function prepareIndexCache(
  command: ToolCommand,
  directory: string,
): Promise<string | undefined> {
  if (command.indexCache === 'empty') {
    await rm(directory, { recursive: true, force: true });
    await mkdir(directory, { recursive: true });
  } else if (command.indexCache === 'filled') {
    const saved = await readdir(join(directory, 'line-index')).catch(() => []);
    if (saved.length === 0) return `no line index was saved in ${directory} by the call before`;
  }
  return undefined;
}

/**
 * Times every command of an operation `runs` times (or its {@link ToolCommand.minimumRuns}),
 * round-robin so drift hits all tools alike, and checks each command's first output against
 * the GNU command's, byte for byte; the outputs other than GNU's are removed once compared
 * (printing rows write gigabytes). Each round has its own index cache directory for the
 * commands that ask for an empty one; a `filled` command reads the one the `empty` command
 * filled last ({@link ToolCommand.indexCache}).
 *
 * @example
 * ```ts
 * rows.push(...(await runOperation(operation, 0, context)));
 * ```
 */
export async function runOperation(
  operation: Operation,
  index: number,
  context: OperationRunContext,
): Promise<ResultRow[]> {
  const outputs = operation.commands.map((_, tool) =>
    join(context.workDirectory, `${index}-${tool}.out`),
  );
  const results: RunResult[][] = operation.commands.map(() => []);
  const cacheProblems: (string | undefined)[] = operation.commands.map(() => undefined);
  const runsOf = (command: ToolCommand) => Math.max(context.runs, command.minimumRuns ?? 0);
  const rounds = Math.max(...operation.commands.map(runsOf));
  let filledDirectory: string | undefined;
  for (let run = 0; run < rounds; run++) {
    const roundDirectory = join(context.workDirectory, `index-cache-${index}-${run}`);
    for (const [tool, command] of operation.commands.entries()) {
      if (run >= runsOf(command)) continue;
      const cacheDirectory =
        command.indexCache === 'filled' ? (filledDirectory ?? roundDirectory) : roundDirectory;
      const cacheProblem = await prepareIndexCache(command, cacheDirectory);
      cacheProblems[tool] ??= cacheProblem;
      const result = await runCommand(command, {
        environment: command.indexCache
          ? { ...context.environment, SPOOLFORGE_CACHE_DIR: cacheDirectory }
          : context.environment,
        gnuTimePath: context.gnuTimePath,
        // Only the first run's output is kept for the comparison.
        stdoutPath:
          run === 0 ? (outputs[tool] as string) : join(context.workDirectory, 'scratch.out'),
        rssPath: join(context.workDirectory, 'rss.txt'),
      });
      if (command.indexCache === 'empty') filledDirectory = cacheDirectory;
      results[tool]?.push(result);
      const problem = runFailure(result);
      process.stderr.write(
        `  ${operation.name} / ${command.tool}: ${result.seconds.toFixed(3)} s${problem ? ` FAILED ${problem}` : ''}\n`,
      );
    }
  }
  const referenceIndex = operation.commands.findIndex((command) => command.role === 'gnu');
  const reference = results[referenceIndex]?.[0];
  const rows: ResultRow[] = [];
  for (const [tool, command] of operation.commands.entries()) {
    const runs = results[tool] ?? [];
    const rssValues = runs.flatMap((result) =>
      result.peakRssBytes === undefined ? [] : [result.peakRssBytes],
    );
    const row: ResultRow = {
      operationKey: operation.key,
      operation: operation.name,
      tool: command.tool,
      role: command.role,
      command: shellCommand(command),
      seconds: runs.map((result) => result.seconds),
      medianSeconds: median(runs.map((result) => result.seconds)),
      ...(rssValues.length > 0 ? { peakRssMebibytes: Math.max(...rssValues) / mebibyte } : {}),
      check: tool === referenceIndex ? 'reference' : 'n/a',
    };
    const problem =
      runs.map(runFailure).find((message) => message !== undefined) ?? cacheProblems[tool];
    if (problem) {
      row.check = 'FAILED';
      row.checkDetail = problem;
    } else if (tool !== referenceIndex && reference && command.comparesOutput !== false) {
      const difference = await compareFiles(
        outputs[referenceIndex] as string,
        outputs[tool] as string,
      );
      const exitDiffers = runs[0]?.exitCode !== reference.exitCode;
      row.check = difference || exitDiffers ? 'MISMATCH' : 'ok';
      if (difference) row.checkDetail = difference;
      else if (exitDiffers) {
        row.checkDetail = `exit status ${runs[0]?.exitCode}, GNU ${reference.exitCode}`;
      }
    }
    rows.push(row);
  }
  await Promise.all(
    outputs.map((path, tool) => (tool === referenceIndex ? undefined : rm(path, { force: true }))),
  );
  await rm(join(context.workDirectory, 'scratch.out'), { force: true });
  return rows;
}

/**
 * Fills the ratio columns from each operation's GNU and ripgrep rows (failed rows excluded; of
 * ripgrep's two runs, with and without mmap, the faster): against each, and against the faster
 * of the two (GNU alone where ripgrep has no row).
 *
 * @example
 * ```ts
 * addRatios(rows); // rows[i].ratioVsGnu = rows[i].medianSeconds / GNU's median
 * ```
 */
export function addRatios(rows: ResultRow[]): void {
  const faster = (best: ResultRow | undefined, peer: ResultRow | undefined) =>
    peer !== undefined && (best === undefined || peer.medianSeconds < best.medianSeconds)
      ? peer
      : best;
  const reference = (operation: string, role: ToolRole) =>
    rows
      .filter((row) => row.operation === operation && row.role === role && row.check !== 'FAILED')
      .reduce<ResultRow | undefined>(faster, undefined);
  for (const row of rows) {
    const gnu = reference(row.operation, 'gnu');
    const ripgrep = reference(row.operation, 'ripgrep');
    if (gnu !== undefined) row.ratioVsGnu = row.medianSeconds / gnu.medianSeconds;
    if (ripgrep !== undefined) row.ratioVsRipgrep = row.medianSeconds / ripgrep.medianSeconds;
    const fastest = faster(gnu, ripgrep);
    if (fastest !== undefined) {
      row.ratioVsFastest = row.medianSeconds / fastest.medianSeconds;
      row.fastestPeer = fastest.tool;
    }
  }
}
