import { shellWord } from '../shared/shell-command.js';
import { checksumLiteral } from './access-log-composer.js';

/**
 * The generated log a case runs on: the multi-service log every bench uses, or the nginx-style
 * access log of this bench.
 *
 * @example
 * ```ts
 * const shape: ShapeName = 'access';
 * ```
 */
export type ShapeName = 'multi-service' | 'access';

/**
 * One grep of the corpus: a category of pattern (ripgrep's benchsuite's and what agents type
 * into `artifact_grep`), the flags every tool gets, and the pattern.
 *
 * @example
 * ```ts
 * const grepCase: GrepCase = { category: 'rare literal', shape: 'access', flags: ['-c'],
 *   pattern: 'bad checksum', fixed: true };
 * ```
 */
export interface GrepCase {
  category: string;
  shape: ShapeName;
  /** Flags every tool is given, before the pattern: `-c`, `-i`, `-w`, `-o`, `-v`, `-n -C 3`. */
  flags: readonly string[];
  /** A JavaScript regex (ripgrep reads it alike), or a fixed string when `fixed`. */
  pattern: string;
  /** A fixed string: `-F` for every tool. Otherwise GNU grep gets `-E`. */
  fixed?: boolean;
  /** GNU grep's spelling, where ERE has no such syntax (`\d`). */
  gnuPattern?: string;
}

/** Cases on one shape: `(category, flags, pattern, { fixed, gnuPattern })`. */
const casesOn =
  (shape: ShapeName) =>
  (
    category: string,
    flags: readonly string[],
    pattern: string,
    more: Pick<GrepCase, 'fixed' | 'gnuPattern'> = {},
  ): GrepCase => ({ category, shape, flags, pattern, ...more });
const multiService = casesOn('multi-service');
const access = casesOn('access');

const fixed = { fixed: true } as const;

/**
 * The corpus, in report order. Rare cases hit 5-9 lines at any size, frequent ones millions of
 * lines in 4 GiB; on the multi-service log none is one of `npm run bench`'s tuned rows.
 * Most count (`-c`); seven print: `-o`, `-n -C 3` and a frequent literal on each shape, and `-v`
 * on the access log.
 */
export const grepCorpus: readonly GrepCase[] = [
  multiService('rare literal', ['-c'], 'GiB used', fixed),
  multiService('frequent literal', ['-c'], 'DEBUG', fixed),
  multiService('long literal, frequent', ['-c'], '","level":"info","service":"', fixed),
  multiService('long literal, common first byte, rare', ['-c'], 'exceeded on volume /data/', fixed),
  multiService('-i, rare letters', ['-c', '-i'], 'quota'),
  multiService('-i, common letters', ['-c', '-i'], 'reset by peer'),
  multiService('alternation of literals', ['-c'], 'card_declined|socket hang up|ETIMEDOUT'),
  multiService('alternation of literals, -i', ['-c', '-i'], 'new-checkout|deprecated header'),
  multiService('rare literal first in a regex', ['-c'], 'volume /data/[0-9]+: 10[0-9]{2} GiB'),
  multiService('rare literal last in a regex', ['-c'], 'ERROR.*exceeded'),
  multiService('counted repeats of \\d', ['-c'], '\\d{4}-\\d{2}', {
    gnuPattern: '[0-9]{4}-[0-9]{2}',
  }),
  multiService('class and counted repeat', ['-c'], 'took [0-9]{2}ms'),
  multiService('-w', ['-c', '-w'], 'order'),
  multiService('^ anchor', ['-c'], '^Caused by'),
  multiService('$ anchor', ['-c'], 'timeout$'),
  multiService(
    'no literal of 3+ bytes',
    ['-c'],
    '[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}',
  ),
  multiService('-v of an alternation', ['-c', '-v'], 'INFO|DEBUG'),
  multiService('-o', ['-o'], 'shard [0-9]+'),
  multiService('-n -C 3, rare literal', ['-n', '-C', '3'], 'exceeded on volume', fixed),
  multiService('frequent literal printed', [], 'WARN', fixed),
  access('rare literal', ['-c'], checksumLiteral, fixed),
  access('frequent literal', ['-c'], 'HTTP/2.0', fixed),
  access(
    'long literal, common first byte, frequent',
    ['-c'],
    '"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15',
    fixed,
  ),
  access('-i, rare letters', ['-c', '-i'], 'sqlmap'),
  access('-i, common letters', ['-c', '-i'], 'connection refused'),
  access('alternation of literals', ['-c'], 'upstream timed out|connect\\(\\) failed|bad checksum'),
  access('alternation of literals, -i', ['-c', '-i'], 'googlebot|bingbot|python-requests'),
  access('rare literal first in a regex', ['-c'], 'sqlmap/[0-9.]+.*upstream_status=[0-9-]+'),
  access('rare literal last in a regex', ['-c'], '\\[error\\].*checksum'),
  access('class and counted repeat', ['-c'], 'upstream_status=5[0-9][0-9]'),
  access('class, counted repeat, no prefix', ['-c'], 'rt=1\\.[0-9]{3} '),
  access('-w', ['-c', '-w'], 'cart'),
  access('^ anchor', ['-c'], '^198\\.51\\.100\\.'),
  access('$ anchor', ['-c'], 'cache=HIT$'),
  access('no literal of 3+ bytes', ['-c'], '[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+:[0-9]+'),
  access('-o', ['-o'], 'GET /api/v2/[a-z]+'),
  access('-n -C 3, rare literal', ['-n', '-C', '3'], checksumLiteral, fixed),
  access('frequent literal printed', [], 'python-requests', fixed),
  access('-v, most lines printed', ['-v'], ' 200 ', fixed),
];

/**
 * How a case reads in the table and what `--only` matches: its category, then the command as
 * the spoolforge CLI takes it.
 *
 * @example
 * ```ts
 * caseName(grepCorpus[0]); // "rare literal: grep -c -F 'GiB used'"
 * ```
 */
export function caseName(grepCase: GrepCase): string {
  const words = [...(grepCase.fixed ? ['-F'] : []), ...grepCase.flags, shellWord(grepCase.pattern)];
  return `${grepCase.category}: grep ${words.join(' ')}`;
}
