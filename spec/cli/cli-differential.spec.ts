import { Buffer } from 'node:buffer';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { type CommandResult, hasGnu, inParallel, runCli, runCommand } from '../helpers/run-cli.js';
import { tempFile } from '../helpers/temp-files.js';

// Byte-for-byte against GNU head, tail, grep -a and sed -n, and awk for line counts (awk counts
// a final line without a newline, as every query does). Skipped only where the GNU tool is absent.
const gnu = {
  grep: hasGnu('grep'),
  sed: hasGnu('sed'),
  head: hasGnu('head'),
  tail: hasGnu('tail'),
};
for (const [tool, present] of Object.entries(gnu)) {
  if (!present)
    console.warn(`cli-differential: GNU ${tool} not found; its comparisons are skipped`);
}

/** A realistic log with the awkward parts: CRLF, empty and very long lines, UTF-8, no final newline. */
function generatedLog(): Uint8Array {
  const lines: string[] = [];
  for (let index = 0; index < 40_000; index++) {
    const level = ['INFO', 'DEBUG', 'WARN', 'ERROR'][index % 7 === 0 ? 3 : index % 4] ?? 'INFO';
    if (index % 997 === 0) lines.push('');
    if (index % 5003 === 0) lines.push(`LONG ${'abc'.repeat(70_000)} end`);
    const ending = index % 13 === 0 ? '\r' : '';
    lines.push(
      `2026-11-22T03:${String(index % 60).padStart(2, '0')} ${level} req=${index} café ${index % 11 === 0 ? 'timeout after 30s' : 'ok'}${ending}`,
    );
  }
  return new Uint8Array(Buffer.from(lines.join('\n'), 'utf8'));
}

const inputs = { ...edgeCaseInputs(), 'generated log': generatedLog() };

const grepCases: string[][] = [
  ['ERROR'],
  ['-n', 'ERROR'],
  ['-c', 'timeout'],
  ['-v', 'INFO'],
  ['-v', '-c', 'INFO'],
  ['-i', 'error'],
  ['-F', 'a.b'],
  ['-F', '-i', 'CAFÉ'],
  ['-m', '2', 'WARN'],
  ['-m', '1', '-A', '2', 'a'],
  ['-C', '1', '-n', 'timeout'],
  ['-A', '0', 'ERROR'],
  ['-B', '2', '-n', 'WARN'],
  ['-n', '-C', '3', '-m', '5', 'timeout'],
  ['-v', '-C', '1', '-n', 'INFO'],
  ['-n', '-i', '-B', '1', '-A', '2', 'req=1[0-9]{2} '],
  ['-c', '-m', '3', 'ERROR'],
  ['-m', '0', 'ERROR'],
  ['-c', '-m', '0', 'ERROR'],
  ['-n', ''],
  ['-n', '^$'],
  ['-n', 'ok\r$'],
  ['-c', 'ok$'],
  ['-n', 'b.$'],
  ['-n', 'LONG'],
  ['-nc', '-v', 'x'],
  ['-n', '-e'],
  ['-E', '-n', 'WARN|ERROR'],
  ['-w', 'a'],
  ['-w', '-i', 'INFO'],
  ['-w', '-n', '-i', 'ok'],
  ['-w', '-c', 'ab'],
  ['-w', '-n', 'b'],
  ['-F', '-w', '-i', 'req=1'],
  ['-x', 'a'],
  ['-x', '-v', 'a'],
  ['-x', '-n', ''],
  ['-x', '-c', '-i', 'FIRST'],
  ['-F', '-x', 'third'],
  ['-o', 'req=[0-9]+'],
  ['-o', '-n', '-i', 'A'],
  ['-o', '-n', '-i', 'é'],
  ['-o', '-n', 'b*'],
  ['-o', '-w', '-n', '[a-z]+'],
  ['-o', '-c', 'x'],
  ['-o', '-v', 'a'],
  ['-o', '-n', '-C', '2', 'timeout'],
  ['-o', 'x{1000}'],
  ['-q', 'a'],
  ['-q', '-v', ''],
  ['-l', 'a'],
  ['-L', 'a'],
  ['-H', '-n', 'ERROR'],
  ['-H', '-c', 'a'],
  ['-h', '-n', 'WARN'],
];

/** Patterns given with `-e` (every operand is then a SOURCE): a line matching any is selected. */
const patternOptionCases: string[][] = [
  ['-e', 'WARN', '-e', 'timeout'],
  ['-n', '-e', '-v'],
  ['-c', '--regexp=req=1', '-e', 'ok$'],
  ['-F', '-e', 'a.b', '-e', 'café'],
  ['-c', '-e', ''],
  ['-i', '-w', '-e', 'error', '-e', 'OK'],
  ['-o', '-n', '-e', 'req=[0-9]+', '-e', 'é'],
];

/** Several files: prefixes, per-file counts and lists, missing files with and without -s. */
const multiFileCases = [
  ...[['-l'], ['-L'], ['-l', '-s'], ['-L', '-s'], ['-q'], ['-q', '-s'], ['-c'], ['-s', '-n']].map(
    (flags) => ({ flags, pattern: 'a', withMissing: true }),
  ),
  ...[
    ['-n'],
    ['-c', '-v'],
    ['-l'],
    ['-L'],
    ['-q'],
    ['-h', '-n'],
    ['-o', '-n', '-i'],
    ['-n', '-C', '1'],
    ['-A', '0'],
    ['-B', '2', '-h'],
    ['-m', '1', '-n'],
  ].map((flags) => ({ flags, pattern: 'a', withMissing: false })),
  { flags: ['-q'], pattern: 'no such text', withMissing: true },
  { flags: ['-q', '-c'], pattern: 'no such text', withMissing: false },
  { flags: ['-q', '-L'], pattern: 'no such text', withMissing: false },
  { flags: ['-c', '-x'], pattern: '', withMissing: false },
  { flags: ['-l', '-w', '-i'], pattern: 'ok', withMissing: false },
  { flags: ['-n', '-C', '2', '-w'], pattern: 'timeout', withMissing: true },
];

/** JavaScript regexes fold case by Unicode; GNU grep does only in a UTF-8 locale. */
const locale = (pattern: string) => (/[\u0080-\uffff]/.test(pattern) ? 'C.UTF-8' : 'C');

type Comparison = [
  label: string,
  ours: () => Promise<CommandResult>,
  theirs: () => Promise<CommandResult>,
];

/**
 * Runs every pair and returns the labels whose status, stdout or stderr differ (GNU's messages
 * start `grep:`, ours `spoolforge:`).
 */
async function mismatches(comparisons: Comparison[]): Promise<string[]> {
  const outcomes = await inParallel(
    comparisons.map(([label, ours, theirs]) => async () => {
      const [mine, gnus] = await Promise.all([ours(), theirs()]);
      const same =
        mine.stderr === gnus.stderr.replace(/^grep: /gm, 'spoolforge: ') &&
        mine.status === gnus.status &&
        mine.stdout.equals(gnus.stdout);
      return same
        ? undefined
        : `${label}: status ${mine.status} vs ${gnus.status}, ${mine.stdout.length} vs ${gnus.stdout.length} bytes ${mine.stderr}`;
    }),
  );
  return outcomes.filter((outcome): outcome is string => outcome !== undefined);
}

describe.each(Object.entries(inputs))('CLI vs GNU tools on %s', (_name, bytes) => {
  it.skipIf(!gnu.grep)(
    'grep, byte for byte with grep -a',
    async () => {
      const path = await tempFile(bytes);
      const comparisons = grepCases.map((args): Comparison => {
        const pattern = args.at(-1) ?? '';
        const flags = args.slice(0, -1);
        const fixed = flags.includes('-F') ? [] : ['-E'];
        return [
          `grep ${args.join(' ')}`,
          () => runCli(['grep', ...flags, '--', pattern, path]),
          () =>
            runCommand(
              'grep',
              ['-a', ...fixed, ...flags, '-e', pattern, path],
              undefined,
              locale(pattern),
            ),
        ];
      });
      for (const args of patternOptionCases) {
        const fixed = args.includes('-F') ? [] : ['-E'];
        comparisons.push([
          `grep ${args.join(' ')}`,
          () => runCli(['grep', ...args, path]),
          () =>
            runCommand('grep', ['-a', ...fixed, ...args, path], undefined, locale(args.join(''))),
        ]);
      }
      expect(await mismatches(comparisons)).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!gnu.head || !gnu.tail)('head and tail', async () => {
    const path = await tempFile(bytes);
    const comparisons = ['0', '1', '3', '10', '1000000', '-2', '-0', '+2', '+1'].flatMap(
      (count): Comparison[] =>
        ['head', 'tail'].map((tool) => [
          `${tool} -n ${count}`,
          () => runCli([tool, '-n', count, path]),
          () => runCommand(tool, ['-n', count, path]),
        ]),
    );
    comparisons.push(['head', () => runCli(['head', path]), () => runCommand('head', [path])]);
    comparisons.push(['tail', () => runCli(['tail', path]), () => runCommand('tail', [path])]);
    expect(await mismatches(comparisons)).toEqual([]);
  });

  it.skipIf(!gnu.sed)('lines, byte for byte with sed -n', async () => {
    const path = await tempFile(bytes);
    const ranges = [
      [1, 1],
      [2, 3],
      [3, 2],
      [1, 1_000_000],
      [5, 5],
      [9000, 9100],
    ];
    const comparisons = ranges.map(
      ([start, end]): Comparison => [
        `lines ${start} ${end}`,
        () => runCli(['lines', String(start), String(end), path]),
        () => runCommand('sed', ['-n', `${start},${end}p`, path]),
      ],
    );
    expect(await mismatches(comparisons)).toEqual([]);
  });

  it('count and stat agree with awk', async () => {
    const path = await tempFile(bytes);
    const expected = (await runCommand('awk', ['END { print NR }', path])).stdout.toString();
    expect((await runCli(['count', path])).stdout.toString()).toBe(expected);
    const stat = JSON.parse((await runCli(['stat', path])).stdout.toString());
    expect(stat).toMatchObject({ bytes: bytes.length, lines: Number(expected) });
  });

  it.skipIf(!gnu.grep || !gnu.tail || !gnu.sed)('reads standard input given as -', async () => {
    const comparisons: Comparison[] = [
      [
        'grep -n -C 1',
        () => runCli(['grep', '-n', '-C', '1', 'timeout', '-'], bytes),
        () => runCommand('grep', ['-a', '-n', '-C', '1', 'timeout'], bytes),
      ],
      [
        'grep -c',
        () => runCli(['grep', '-c', 'a', '-'], bytes),
        () => runCommand('grep', ['-a', '-c', 'a'], bytes),
      ],
      [
        'tail -n 3',
        () => runCli(['tail', '-n', '3', '-'], bytes),
        () => runCommand('tail', ['-n', '3'], bytes),
      ],
      [
        'head -n -3',
        () => runCli(['head', '-n', '-3', '-'], bytes),
        () => runCommand('head', ['-n', '-3'], bytes),
      ],
      [
        'lines 2 4',
        () => runCli(['lines', '2', '4', '-'], bytes),
        () => runCommand('sed', ['-n', '2,4p'], bytes),
      ],
    ];
    expect(await mismatches(comparisons)).toEqual([]);
  });
});

describe('CLI vs GNU grep on several files', () => {
  it.skipIf(!gnu.grep)(
    'prefixes, counts, lists and exit status, some files missing',
    async () => {
      const paths = await Promise.all(
        // A name that is not ASCII is printed as its bytes.
        Object.values(inputs).map((input, index) => tempFile(input, `café-${index}.log`)),
      );
      const missing = `${paths[0]}.missing`;
      const files = [...paths.slice(0, 5), missing, ...paths.slice(5)];
      const comparisons = multiFileCases.map(({ flags, pattern, withMissing }): Comparison => {
        const operands = withMissing ? files : files.filter((file) => file !== missing);
        return [
          `grep ${flags.join(' ')} ${pattern} (${withMissing ? 'one missing' : 'all present'})`,
          () => runCli(['grep', ...flags, '--', pattern, ...operands]),
          () =>
            runCommand(
              'grep',
              ['-a', '-E', ...flags, '-e', pattern, ...operands],
              undefined,
              locale(pattern),
            ),
        ];
      });
      expect(await mismatches(comparisons)).toEqual([]);
    },
    120_000,
  );
});

describe.skipIf(!existsSync('/proc/meminfo'))('CLI on files whose size reads 0 (procfs)', () => {
  it('reads them to the end as GNU tools do', async () => {
    // Lines whose content does not change between two reads of the file.
    const comparisons: Comparison[] = [
      [
        'grep MemTotal',
        () => runCli(['grep', 'MemTotal', '/proc/meminfo']),
        () => runCommand('grep', ['-a', 'MemTotal', '/proc/meminfo']),
      ],
      [
        'grep -c',
        () => runCli(['grep', '-c', '', '/proc/meminfo', '/proc/self/status']),
        () => runCommand('grep', ['-a', '-c', '', '/proc/meminfo', '/proc/self/status']),
      ],
      [
        'head -n 1',
        () => runCli(['head', '-n', '1', '/proc/meminfo']),
        () => runCommand('head', ['-n', '1', '/proc/meminfo']),
      ],
      [
        'lines 1 1',
        () => runCli(['lines', '1', '1', '/proc/meminfo']),
        () => runCommand('sed', ['-n', '1p', '/proc/meminfo']),
      ],
      [
        'tail -n +2 | grep -c',
        () => runCli(['tail', '-n', '+2', '/proc/meminfo']).then(lineTotal),
        () => runCommand('tail', ['-n', '+2', '/proc/meminfo']).then(lineTotal),
      ],
      [
        'tail -n 1 | grep -c',
        () => runCli(['tail', '-n', '1', '/proc/self/status']).then(lineTotal),
        () => runCommand('tail', ['-n', '1', '/proc/self/status']).then(lineTotal),
      ],
      [
        'count',
        () => runCli(['count', '/proc/meminfo']),
        () => runCommand('awk', ['END { print NR }', '/proc/meminfo']),
      ],
    ];
    expect(await mismatches(comparisons)).toEqual([]);
    const stat = JSON.parse((await runCli(['stat', '/proc/meminfo'])).stdout.toString());
    const lines = Number((await runCommand('awk', ['END { print NR }', '/proc/meminfo'])).stdout);
    expect(stat).toMatchObject({ lines, kind: 'text' });
    expect(stat.bytes).toBeGreaterThan(0);
  });
});

/** Keeps only how many lines were printed (for output whose text changes from read to read). */
function lineTotal(result: CommandResult): CommandResult {
  const lines = result.stdout.toString().split('\n').length - 1;
  return { ...result, stdout: Buffer.from(`${lines}\n`) };
}
