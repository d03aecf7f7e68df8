import { findJsonSyntaxError } from '../json/find-json-syntax-error.js';
import { type SniffSample, sniffSample } from './sniff-sample.js';

// The built-in kinds' sniffers; each assumes the ones before it in `builtInSniffers` said no.

/**
 * NUL bytes mean binary.
 *
 * @example
 * ```ts
 * looksBinary(sniffSample(new Uint8Array([0x89, 0x50, 0, 1]))); // true
 * ```
 */
export function looksBinary(sample: SniffSample): boolean {
  return sample.bytes.includes(0);
}

/** The non-blank lines of a sample that starts like JSON, or `undefined` for one that does not. */
function jsonStart(sample: SniffSample): { trimmed: string; lines: string[] } | undefined {
  const trimmed = sample.text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  return { trimmed, lines: trimmed.split('\n').filter((line) => line.trim() !== '') };
}

function isContainer(line: string | undefined): boolean {
  try {
    return typeof JSON.parse(line ?? '') === 'object';
  } catch {
    return false;
  }
}

/**
 * A first line that is a JSON object or array, followed by another (or, in a sample cut short,
 * by the start of one).
 *
 * @example
 * ```ts
 * looksJsonl(sniffSample(new TextEncoder().encode('{"a":1}\n{"a":2}\n'))); // true
 * ```
 */
export function looksJsonl(sample: SniffSample): boolean {
  const start = jsonStart(sample);
  if (!start || !isContainer(start.lines[0])) return false;
  const second = start.lines[1]?.trimStart();
  const cutShort = !sample.complete && start.lines.length === 2;
  return isContainer(second) || (cutShort && /^[[{]/.test(second ?? ''));
}

/**
 * Text that is JSON as far as it goes (all of it, when the sample is `complete`).
 *
 * @example
 * ```ts
 * looksJson(sniffSample(new TextEncoder().encode('{"a": [1,'))); // true: cut short
 * ```
 */
export function looksJson(sample: SniffSample): boolean {
  const start = jsonStart(sample);
  if (!start) return false;
  if (start.lines.length === 1 && isContainer(start.lines[0])) return true;
  return !findJsonSyntaxError(start.trimmed, { allowTruncation: !sample.complete });
}

const strongMarkdown = [
  /^#{1,6}[ \t]+\S/m, // an ATX heading ("#hashtag" is not one)
  /^(?:```|~~~)/m, // a code fence
  /^(?:---|\+\+\+)\r?\n[\s\S]*?\r?\n(?:---|\+\+\+)\r?$/, // front matter
  /^[^\s].*\r?\n(?:=+|-{2,})[ \t]*\r?$/m, // a setext heading underline
];
const weakMarkdown = [
  /\[[^\]\n]+\]\([^)\s]+\)/, // an inline link
  /^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S/m, // a list item
  /(?:\*\*|__)\S[^\n]*?\S(?:\*\*|__)/, // strong emphasis
  /^\|.*\|[ \t]*\r?\n\|?[ \t]*:?-{3,}/m, // a table header and its delimiter row
  /^>[ \t]/m, // a block quote
];

/**
 * A heading, a code fence or front matter, or two weaker signs (links, lists, emphasis, tables,
 * quotes).
 *
 * @example
 * ```ts
 * looksMarkdown(sniffSample(new TextEncoder().encode('# Title\n\nSome text.\n'))); // true
 * ```
 */
export function looksMarkdown(sample: SniffSample): boolean {
  const { text } = sample;
  if (strongMarkdown.some((signal) => signal.test(text))) return true;
  return weakMarkdown.filter((signal) => signal.test(text)).length >= 2;
}

/**
 * The built-in kinds' names and sniffers, in the order they are asked; `text` takes the rest.
 *
 * @example
 * ```ts
 * builtInSniffers.map(([name]) => name); // ['binary', 'jsonl', 'json', 'markdown', 'text']
 * ```
 */
export const builtInSniffers = [
  ['binary', looksBinary],
  ['jsonl', looksJsonl],
  ['json', looksJson],
  ['markdown', looksMarkdown],
  ['text', () => true],
] as const satisfies readonly (readonly [string, (sample: SniffSample) => boolean])[];

/**
 * The name of the built-in kind `head` shows, without loading the kinds' classes (the CLI's
 * `stat` reports it).
 *
 * @example
 * ```ts
 * sniffBuiltInKind(new TextEncoder().encode('# Title\n'), { complete: true }); // 'markdown'
 * ```
 */
export function sniffBuiltInKind(head: Uint8Array, options: { complete?: boolean } = {}): string {
  const sample = sniffSample(head, options);
  return builtInSniffers.find(([, sniff]) => sniff(sample))?.[0] ?? 'text';
}
