import { findJsonSyntaxError } from './json/find-json-syntax-error.js';

/**
 * What an artifact holds, as far as its first bytes (or its declared media type) tell.
 *
 * @example
 * ```ts
 * const kind: ArtifactKind = detectKind(firstBytes);
 * ```
 */
export type ArtifactKind = 'text' | 'json' | 'jsonl' | 'markdown' | 'binary';

/**
 * How much of the start kind detection looks at: enough for JSON's first records, Markdown's
 * first headings and any NUL byte of a binary header.
 *
 * @example
 * ```ts
 * const kind = detectKind(await reader.read(0, sniffBytes), { complete: size <= sniffBytes });
 * ```
 */
export const sniffBytes = 64 * 1024;

/**
 * The kind of a spooled output: the one given, else the one the declared media type names,
 * else the one its first {@link sniffBytes} bytes show.
 *
 * @example
 * ```ts
 * resolveKind({ mediaType: 'application/x-ndjson', head, complete: false }); // 'jsonl'
 * ```
 */
export function resolveKind(options: {
  kind?: ArtifactKind | undefined;
  mediaType?: string | undefined;
  head: Uint8Array;
  complete: boolean;
}): ArtifactKind {
  const declared = options.mediaType ? kindOfMediaType(options.mediaType) : undefined;
  return options.kind ?? declared ?? detectKind(options.head, { complete: options.complete });
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
 * Sniffs the first bytes (64 KiB is plenty): NUL bytes mean binary; a first line that is a JSON
 * object or array followed by another such line means JSONL; text that is JSON as far as it
 * goes means JSON; a heading, a code fence or front matter, or two weaker signs (links, lists,
 * emphasis, tables, quotes) mean Markdown; anything else is text. Pass `complete: true` when
 * `head` is the whole content, so that JSON cut short is not taken for JSON.
 *
 * @example
 * ```ts
 * detectKind(new TextEncoder().encode('{"a":1}\n{"a":2}\n')); // 'jsonl'
 * ```
 */
export function detectKind(head: Uint8Array, options: { complete?: boolean } = {}): ArtifactKind {
  if (head.includes(0)) return 'binary';
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const lines = trimmed.split('\n').filter((line) => line.trim() !== '');
    const isContainer = (line: string | undefined) => {
      try {
        return typeof JSON.parse(line ?? '') === 'object';
      } catch {
        return false;
      }
    };
    if (isContainer(lines[0])) {
      const second = lines[1]?.trimStart();
      const cutShort = !options.complete && lines.length === 2;
      if (isContainer(second) || (cutShort && /^[[{]/.test(second ?? ''))) return 'jsonl';
      if (lines.length === 1) return 'json';
    }
    if (!findJsonSyntaxError(trimmed, { allowTruncation: !options.complete })) return 'json';
  }
  if (strongMarkdown.some((signal) => signal.test(text))) return 'markdown';
  return weakMarkdown.filter((signal) => signal.test(text)).length >= 2 ? 'markdown' : 'text';
}

const mediaTypes: Record<ArtifactKind, string> = {
  text: 'text/plain',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  markdown: 'text/markdown',
  binary: 'application/octet-stream',
};

/**
 * The media type of a kind (`application/x-ndjson` for JSONL).
 *
 * @example
 * ```ts
 * mediaTypeOfKind('markdown'); // 'text/markdown'
 * ```
 */
export function mediaTypeOfKind(kind: ArtifactKind): string {
  return mediaTypes[kind];
}

/**
 * The kind a declared media type means, or `undefined` for one that says nothing useful.
 * JSON Lines goes by several names; structured-syntax suffixes (`+json`) count as JSON.
 *
 * @example
 * ```ts
 * kindOfMediaType('application/x-ndjson; charset=utf-8'); // 'jsonl'
 * ```
 */
export function kindOfMediaType(mediaType: string): ArtifactKind | undefined {
  const essence = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (/^application\/(?:x-)?(?:ndjson|jsonl|jsonlines|json-seq)$/.test(essence)) return 'jsonl';
  if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
  if (essence === 'text/markdown' || essence === 'text/x-markdown') return 'markdown';
  if (essence.startsWith('text/')) return 'text';
  return undefined;
}
