import { execFileSync } from 'node:child_process';
import { copyFile, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CommandSpec,
  compareFiles,
  median,
  type RunResult,
  runCommand,
  runFailure,
} from '../shared/measure.js';
import { shellCommand } from '../shared/shell-command.js';
import { caseName, type GrepCase, type ShapeName } from './grep-corpus.js';

const mebibyte = 1024 * 1024;

/** The tool name of the spoolforge CLI's runs. */
export const spoolforgeTool = 'spoolforge';
/** The tool name of GNU grep's runs, whose output every other tool's is compared with. */
export const gnuTool = 'GNU grep';

/**
 * One tool's runs of a case: every run's wall time, the figure the ratios use (the median or
 * the minimum), the largest peak RSS, and how its output compared with GNU grep's.
 *
 * @example
 * ```ts
 * const result: ToolResult = { tool: 'rg', command: 'rg -c DEBUG x.log', seconds: [0.2],
 *   figure: 0.2, check: 'ok' };
 * ```
 */
export interface ToolResult {
  tool: string;
  command: string;
  seconds: number[];
  figure: number;
  peakRssMebibytes?: number;
  /** `reference` for GNU grep; `MISMATCH` when the output or exit status differ from it. */
  check: 'reference' | 'ok' | 'MISMATCH' | 'FAILED';
  /** What differed, or why a run failed. */
  detail?: string;
}

/**
 * A case's outcome: each tool's runs, and spoolforge's time over the fastest peer's (GNU grep,
 * `rg`, `rg --no-mmap`; peers that failed or printed other bytes are left out) and over GNU's.
 *
 * @example
 * ```ts
 * if (result.ratio !== undefined && result.ratio > 1.25) slow.push(result.name);
 * ```
 */
export interface CaseResult {
  name: string;
  shape: ShapeName;
  /** GNU grep's count for `-c` cases, else how many lines it printed. */
  hits: string;
  tools: ToolResult[];
  /** Spoolforge's figure over the fastest peer's; undefined when spoolforge's row failed. */
  ratio?: number;
  fastestPeer?: string;
  ratioVsGnu?: number;
}

/**
 * Where and how a case's commands run.
 *
 * @example
 * ```ts
 * const context: CaseRunContext = { runs: 3, statistic: 'median', logPath, cliPath, ripgrep: true,
 *   workDirectory, outputDirectory: workDirectory, environment, gnuTimePath };
 * ```
 */
export interface CaseRunContext {
  runs: number;
  statistic: 'median' | 'min';
  logPath: string;
  /** The built CLI, `dist/cli/main.js`. */
  cliPath: string;
  /** Whether `rg` is installed. */
  ripgrep: boolean;
  /** The bench's private directory. */
  workDirectory: string;
  /** Holds each tool's first output until it is compared (`--output-dir`, or the work directory). */
  outputDirectory: string;
  environment: NodeJS.ProcessEnv;
  gnuTimePath: string | undefined;
}

/**
 * The commands of a case, GNU grep's first: `grep -a`, with `-F` for a fixed string and `-E`
 * otherwise; `rg` as installed (it memory-maps one file) and `rg --no-mmap`; the CLI.
 *
 * @example
 * ```ts
 * grepCommands(grepCase, context)[0].argv; // ['grep', '-a', '-F', '-c', 'GiB used', logPath]
 * ```
 */
export function grepCommands(
  grepCase: GrepCase,
  context: Pick<CaseRunContext, 'logPath' | 'cliPath' | 'ripgrep'>,
): (CommandSpec & { tool: string })[] {
  const { logPath } = context;
  const fixed = grepCase.fixed ? ['-F'] : [];
  const words = [...fixed, ...grepCase.flags, grepCase.pattern, logPath];
  const gnuWords = [
    grepCase.fixed ? '-F' : '-E',
    ...grepCase.flags,
    grepCase.gnuPattern ?? grepCase.pattern,
    logPath,
  ];
  return [
    { tool: gnuTool, argv: ['grep', '-a', ...gnuWords] },
    ...(context.ripgrep
      ? [
          { tool: 'rg', argv: ['rg', ...words] },
          { tool: 'rg --no-mmap', argv: ['rg', '--no-mmap', ...words] },
        ]
      : []),
    { tool: spoolforgeTool, argv: [process.execPath, context.cliPath, 'grep', ...words] },
  ];
}

/**
 * Times a case's commands `runs` times each, interleaved, the order rotated every round (and
 * from one case to the next) so drift and cache effects fall on every tool alike; compares
 * each tool's first output with GNU grep's byte for byte, and takes the ratios.
 *
 * @example
 * ```ts
 * const result = await runGrepCase(grepCorpus[0], 0, context);
 * ```
 */
export async function runGrepCase(
  grepCase: GrepCase,
  index: number,
  context: CaseRunContext,
): Promise<CaseResult> {
  const name = caseName(grepCase);
  const commands = grepCommands(grepCase, context);
  const outputs = commands.map((_, tool) => join(context.outputDirectory, `${index}-${tool}.out`));
  const scratchPath = join(context.outputDirectory, 'scratch.out');
  const results: RunResult[][] = commands.map(() => []);
  /** Each tool's first output against GNU grep's, compared as soon as it is written. */
  const differences: (string | undefined)[] = commands.map(() => undefined);
  for (let run = 0; run < context.runs; run++) {
    // Later runs write over a copy of GNU grep's output: see `RunOptions.overwrite`. The first
    // runs' outputs, compared, are written as a file is, from nothing.
    if (run === 1) {
      await copyFile(outputs[0] as string, scratchPath).catch(() => writeFile(scratchPath, ''));
      // Untimed, as after each run: the copy's writeback must not land in the next run.
      const scratch = await open(scratchPath, 'r+');
      await scratch.sync();
      await scratch.close();
    }
    for (let step = 0; step < commands.length; step++) {
      const tool = toolAt(step, run, index, commands.length);
      const command = commands[tool] as CommandSpec & { tool: string };
      const result = await runCommand(command, {
        environment: context.environment,
        gnuTimePath: context.gnuTimePath,
        stdoutPath: run === 0 ? (outputs[tool] as string) : scratchPath,
        overwrite: run > 0,
        rssPath: join(context.workDirectory, 'rss.txt'),
      });
      results[tool]?.push(result);
      const problem = runFailure(result);
      process.stderr.write(
        `  ${grepCase.shape} / ${name} / ${command.tool}: ${result.seconds.toFixed(3)} s${problem ? ` FAILED ${problem}` : ''}\n`,
      );
      // At most GNU grep's output and one other are kept: a printing case writes GBs a tool,
      // and a tmpfs full of them squeezes the logs out of the page cache.
      if (run === 0 && tool > 0) {
        differences[tool] = await compareFiles(outputs[0] as string, outputs[tool] as string);
        await rm(outputs[tool] as string, { force: true });
      }
    }
  }
  const reference = results[0]?.[0];
  const referenceFailed = (results[0] ?? []).some((result) => runFailure(result) !== undefined);
  const tools: ToolResult[] = [];
  for (const [tool, command] of commands.entries()) {
    const runs = results[tool] ?? [];
    const seconds = runs.map((result) => result.seconds);
    const rss = runs.flatMap((result) => result.peakRssBytes ?? []);
    const row: ToolResult = {
      tool: command.tool,
      command: shellCommand(command),
      seconds,
      figure: context.statistic === 'min' ? Math.min(...seconds) : median(seconds),
      ...(rss.length > 0 ? { peakRssMebibytes: Math.max(...rss) / mebibyte } : {}),
      check: tool === 0 ? 'reference' : 'ok',
    };
    const problem = runs.map(runFailure).find((message) => message !== undefined);
    if (problem !== undefined) {
      row.check = 'FAILED';
      row.detail = problem;
    } else if (tool > 0 && (referenceFailed || reference === undefined)) {
      row.check = 'FAILED';
      row.detail = 'GNU grep failed: no output to compare with';
    } else if (tool > 0 && reference !== undefined) {
      const difference = differences[tool];
      if (difference !== undefined) row.detail = difference;
      else if (runs[0]?.exitCode !== reference.exitCode) {
        row.detail = `exit status ${runs[0]?.exitCode}, GNU grep's ${reference.exitCode}`;
      }
      if (row.detail !== undefined) row.check = 'MISMATCH';
    }
    tools.push(row);
  }
  const hits = await describeHits(grepCase, outputs[0] as string);
  await Promise.all([...outputs, scratchPath].map((path) => rm(path, { force: true })));
  return { name, shape: grepCase.shape, hits, tools, ...ratios(tools) };
}

/**
 * Which tool runs at `step` of `run`: GNU grep first in the first run, so each other tool's
 * output can be compared with its output at once; the order rotated from run to run and case
 * to case, so no tool always follows the same one.
 */
function toolAt(step: number, run: number, index: number, tools: number): number {
  if (run > 0) return (step + run + index) % tools;
  return step === 0 ? 0 : 1 + ((step - 1 + index) % (tools - 1));
}

/** What GNU grep found: its count for `-c`, else how many lines it printed. */
async function describeHits(grepCase: GrepCase, outputPath: string): Promise<string> {
  if (grepCase.flags.includes('-c')) return (await readFile(outputPath, 'utf8')).trim();
  const lines = execFileSync('wc', ['-l', outputPath], { encoding: 'utf8' }).trim().split(' ')[0];
  return `${lines} lines out`;
}

function ratios(
  tools: readonly ToolResult[],
): Pick<CaseResult, 'ratio' | 'fastestPeer' | 'ratioVsGnu'> {
  const spoolforge = tools.find((tool) => tool.tool === spoolforgeTool);
  const peers = tools.filter(
    (tool) => tool.tool !== spoolforgeTool && (tool.check === 'ok' || tool.check === 'reference'),
  );
  const fastest = peers.reduce<ToolResult | undefined>(
    (best, peer) => (best === undefined || peer.figure < best.figure ? peer : best),
    undefined,
  );
  const gnu = peers.find((tool) => tool.tool === gnuTool);
  if (spoolforge === undefined || spoolforge.check !== 'ok' || fastest === undefined) return {};
  return {
    ratio: spoolforge.figure / fastest.figure,
    fastestPeer: fastest.tool,
    ...(gnu ? { ratioVsGnu: spoolforge.figure / gnu.figure } : {}),
  };
}
