import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { type CommandResult, hasGnu, inParallel, runCli, runCommand } from '../helpers/run-cli.js';
import { tempFile } from '../helpers/temp-files.js';

// Byte-for-byte against GNU head, tail, grep -a and sed -n, and awk for line counts (awk counts
// a final line without a newline, as DESIGN §2 does). Skipped only where the GNU tool is absent.
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
];

/** JavaScript regexes fold case by Unicode; GNU grep does only in a UTF-8 locale. */
const locale = (pattern: string) => (/[\u0080-\uffff]/.test(pattern) ? 'C.UTF-8' : 'C');

type Comparison = [
  label: string,
  ours: () => Promise<CommandResult>,
  theirs: () => Promise<CommandResult>,
];

/** Runs every pair and returns the labels whose status, stdout or stderr differ. */
async function mismatches(comparisons: Comparison[]): Promise<string[]> {
  const outcomes = await inParallel(
    comparisons.map(([label, ours, theirs]) => async () => {
      const [mine, gnus] = await Promise.all([ours(), theirs()]);
      const same =
        mine.stderr === '' && mine.status === gnus.status && mine.stdout.equals(gnus.stdout);
      return same
        ? undefined
        : `${label}: status ${mine.status} vs ${gnus.status}, ${mine.stdout.length} vs ${gnus.stdout.length} bytes ${mine.stderr}`;
    }),
  );
  return outcomes.filter((outcome): outcome is string => outcome !== undefined);
}

describe.each(Object.entries(inputs))('CLI vs GNU tools on %s', (_name, bytes) => {
  it.skipIf(!gnu.grep)('grep, byte for byte with grep -a', async () => {
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
    expect(await mismatches(comparisons)).toEqual([]);
  });

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
