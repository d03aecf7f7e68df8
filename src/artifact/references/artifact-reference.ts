import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * A model's reference to a spooled output, as it may stand for any value in a tool's
 * arguments: `{"$artifact": "<callId or name>"}` with at most one selector — `lines`
 * (`"120-480"`, 1-based and inclusive, or one line `"7"`), `json` (a JSONPath selecting
 * exactly one value, substituted as that JSON value) or `grep` (a regex; the matching lines).
 * Without a selector it stands for the output's whole text.
 *
 * @example
 * ```ts
 * const reference: OutputReference = { $artifact: 'call_1', json: '$.body' };
 * ```
 */
export interface OutputReference {
  $artifact: string;
  lines?: string;
  json?: string;
  grep?: string;
}

/** The key that makes an object a reference. */
export const referenceKey = '$artifact';

/** `$$artifact`, `$$$artifact`, …: the escape of a key, delivered with one `$` less. */
const escapedKey = /^\$\$+artifact$/;

/**
 * The key a tool gets for `key` of the arguments: an escaped `$$artifact` (or `$$$artifact`, …)
 * with one `$` stripped, so an object whose key is `$artifact` can reach a tool literally;
 * any other key as it is.
 *
 * @example
 * ```ts
 * deliveredKey('$$artifact'); // '$artifact'
 * deliveredKey('$artifact'); // '$artifact' (a reference is resolved, not renamed)
 * ```
 */
export function deliveredKey(key: string): string {
  return escapedKey.test(key) ? key.slice(1) : key;
}

const selectors = ['lines', 'json', 'grep'] as const;

/**
 * The reference form in one sentence, as the forged tools and the proxy explain it once.
 *
 * @example
 * ```ts
 * description.endsWith(referenceFormHelp); // the listing tools' descriptions
 * ```
 */
export const referenceFormHelp =
  'Any tool argument may be {"$artifact":"<id or name>"}, optionally with "lines":"A-B", "json":"$.path" (one value) or "grep":"regex".';

/** Where a model may have meant a literal object: how to send one. */
const literalHint = ' (to send an object with a "$artifact" key as it is, write "$$artifact")';

/** An E_BAD_REFERENCE naming what was wrong. */
export function badReference(message: string, cause?: unknown): SpoolforgeError {
  return new SpoolforgeError('E_BAD_REFERENCE', message, cause === undefined ? {} : { cause });
}

/** How an error names a reference, bounded: `{"$artifact":"call_1","lines":"1-9"}`. */
export function describeReference(reference: OutputReference): string {
  return quoteInput(JSON.stringify(reference), 200);
}

/**
 * `node` as a reference when it is an object with a `$artifact` key, checked: a string
 * `$artifact`, at most one string selector, no other key (else `E_BAD_REFERENCE`). Anything
 * else is not a reference: `undefined`.
 *
 * @example
 * ```ts
 * asOutputReference({ $artifact: 'call_1', lines: '1-20' }); // the reference
 * asOutputReference({ path: '/tmp' }); // undefined
 * ```
 */
export function asOutputReference(node: unknown): OutputReference | undefined {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  if (!Object.hasOwn(node, referenceKey)) return undefined;
  const record = node as Record<string, unknown>;
  const target = record[referenceKey];
  if (typeof target !== 'string' || target === '') {
    throw badReference(`"$artifact" must be the callId or name of a spooled output${literalHint}`);
  }
  // OpenAI strict mode sends null for a selector left out.
  const others = Object.keys(record).filter((key) => key !== referenceKey && record[key] !== null);
  const stray = others.filter((key) => !(selectors as readonly string[]).includes(key));
  if (stray.length > 0) {
    throw badReference(
      `A reference takes "$artifact" and at most one of ${selectors.map((each) => `"${each}"`).join(', ')}; not ${stray.map((key) => `"${quoteInput(key, 40)}"`).join(', ')}${literalHint}`,
    );
  }
  if (others.length > 1) {
    throw badReference(`A reference takes one selector, not ${others.join(' and ')}`);
  }
  const [selector] = others;
  if (selector !== undefined && typeof record[selector] !== 'string') {
    throw badReference(`"${selector}" must be a string`);
  }
  return {
    $artifact: target,
    ...(selector === undefined ? {} : { [selector]: record[selector] }),
  };
}

/**
 * Whether a reference, or an escaped key (see {@link deliveredKey}), stands anywhere in `node`
 * (checked or not): arguments without one are passed on as they are, without a turn of the
 * event loop.
 *
 * @example
 * ```ts
 * containsReference({ notes: [{ $artifact: 'call_1' }] }); // true
 * ```
 */
export function containsReference(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(containsReference);
  return (
    Object.keys(node).some((key) => key === referenceKey || escapedKey.test(key)) ||
    Object.values(node).some(containsReference)
  );
}

/**
 * A `lines` selector as the 0-based half-open range it means (`"120-480"` → `[119, 480)`).
 *
 * @example
 * ```ts
 * lineSelection('3-5'); // { start: 2, end: 5 }
 * ```
 */
export function lineSelection(lines: string): { start: number; end: number } {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(lines);
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : Number(match[2]);
  if (!match || first < 1 || last < first || !Number.isSafeInteger(last)) {
    throw badReference(
      `"lines" must be "A-B" (1-based, inclusive, A ≤ B) or one line "A", not "${quoteInput(lines, 40)}"`,
    );
  }
  return { start: first - 1, end: last };
}
