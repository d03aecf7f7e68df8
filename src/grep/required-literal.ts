const escapedLiteral = /[\\^$.|?*+()[\]{}/-]/;
const boundedQuantifier = /^\{(\d+)(,\d*)?\}\??/;

/**
 * The longest run of characters every match of a JavaScript regex (no `u` flag) must contain,
 * or `undefined` when none of at least three characters can be proven: used to find candidate
 * lines with a byte search before the regex runs. Conservative by design: alternation, groups,
 * classes, escapes such as `\d` and anything optional end a run or give up.
 *
 * @example
 * ```ts
 * requiredLiteral('ERROR .*timeout'); // 'timeout'
 * requiredLiteral('a|b'); // undefined
 * ```
 */
export function requiredLiteral(source: string): string | undefined {
  return requiredLiterals(source)[0];
}

/**
 * Every run of at least three characters that each match of a JavaScript regex must contain
 * (see {@link requiredLiteral}), longest first: a line lacking any of them cannot match.
 *
 * @example
 * ```ts
 * requiredLiterals('ERROR .*timeout'); // ['timeout', 'ERROR ']
 * ```
 */
export function requiredLiterals(source: string): string[] {
  const runs: string[] = [];
  let run = '';
  const endRun = () => {
    if (run) runs.push(run);
    run = '';
  };
  let index = 0;
  /** Applies a quantifier after a literal character: optional ones drop it from the run. */
  const quantify = (afterLiteral: boolean) => {
    const rest = source.slice(index);
    const bounded = boundedQuantifier.exec(rest);
    const symbol = rest[0];
    if (!bounded && symbol !== '?' && symbol !== '*' && symbol !== '+') return;
    const optional = symbol === '?' || symbol === '*' || Number(bounded?.[1]) === 0;
    if (afterLiteral && optional) run = run.slice(0, -1);
    endRun();
    index += bounded ? bounded[0].length : rest[1] === '?' ? 2 : 1;
  };
  while (index < source.length) {
    const character = source[index] as string;
    if (character === '|') return [];
    if (character === '(' || character === '[') {
      const end = skipBracketed(source, index);
      if (end === undefined) return [];
      endRun();
      index = end;
      quantify(false);
      continue;
    }
    if (character === '\\') {
      const next = source[index + 1] ?? '';
      if (escapedLiteral.test(next)) {
        run += next;
        index += 2;
        quantify(true);
        continue;
      }
      // A named backreference's `<name>` must not be read as literal text.
      if (next === 'k') return [];
      // \d, \w, \b, \x41, \u0041, \cJ, \1: not a literal run (and never read as one). An
      // incomplete \x, \u or \c is literal text in JavaScript: give up rather than misread it.
      const escapeSize = escapeLength(source, index + 1);
      if (escapeSize === undefined) return [];
      endRun();
      index += 1 + escapeSize;
      while (/\d/.test(next) && /\d/.test(source[index] ?? '')) index++;
      quantify(false);
      continue;
    }
    if (character === '.' || character === '^' || character === '$') {
      endRun();
      index++;
      quantify(false);
      continue;
    }
    if ('?*+'.includes(character) || boundedQuantifier.test(source.slice(index))) {
      quantify(false);
      continue;
    }
    run += character;
    index++;
    quantify(true);
  }
  endRun();
  // Stable: among runs of one length, the first in the pattern comes first.
  return runs.filter((run) => run.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * The alternatives of a regex at its top level (`a|b(c|d)` gives `a` and `b(c|d)`), or
 * `undefined` when a group or class does not close.
 *
 * @example
 * ```ts
 * topLevelAlternatives('ERROR|FATAL'); // ['ERROR', 'FATAL']
 * ```
 */
export function topLevelAlternatives(source: string): string[] | undefined {
  const alternatives: string[] = [];
  let from = 0;
  for (let index = 0; index < source.length; ) {
    const character = source[index];
    if (character === '\\') index += 2;
    else if (character === '(' || character === '[') {
      const end = skipBracketed(source, index);
      if (end === undefined) return undefined;
      index = end;
    } else {
      if (character === '|') {
        alternatives.push(source.slice(from, index));
        from = index + 1;
      }
      index++;
    }
  }
  alternatives.push(source.slice(from));
  return alternatives;
}

/** The index after the group or class opening at `start`, or `undefined` if it never closes. */
function skipBracketed(source: string, start: number): number | undefined {
  let depth = 0;
  let inClass = false;
  for (let index = start; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') {
      index++;
      continue;
    }
    if (inClass) {
      if (character === ']') {
        inClass = false;
        if (depth === 0) return index + 1;
      }
      continue;
    }
    if (character === '[') {
      // In JavaScript `[]` matches nothing and `[^]` any character: the `]` closes the class.
      if (source[index + 1] === '^') index++;
      if (source[index + 1] === ']') {
        if (depth === 0) return index + 2;
        index++;
        continue;
      }
      inClass = true;
    } else if (character === '(') depth++;
    else if (character === ')' && --depth === 0) return index + 1;
  }
  return undefined;
}

/** The length of the escape whose letter is at `at` (after the backslash), or `undefined` for an incomplete `\x`, `\u` or `\c`. */
function escapeLength(source: string, at: number): number | undefined {
  const rest = source.slice(at);
  if (rest[0] === 'x') return /^x[0-9a-f]{2}/i.test(rest) ? 3 : undefined;
  if (rest[0] === 'u') return /^u[0-9a-f]{4}/i.test(rest) ? 5 : undefined;
  if (rest[0] === 'c') return /^c[a-z]/i.test(rest) ? 2 : undefined;
  return 1;
}
