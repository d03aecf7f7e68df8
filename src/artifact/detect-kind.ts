/**
 * What an artifact holds, as far as its first bytes tell.
 *
 * @example
 * ```ts
 * const kind: ArtifactKind = detectKind(firstBytes);
 * ```
 */
export type ArtifactKind = 'text' | 'json' | 'jsonl' | 'markdown' | 'binary';

const markdownSignals = [
  /^#{1,6} \S/m,
  /^```/m,
  /^---\r?\n[\s\S]*?\r?\n---\r?$/m,
  /^\s*[-*] \[[ x]\] /m,
];

/**
 * Sniffs the first bytes (a few KiB is plenty): NUL bytes mean binary; a leading `{` or `[`
 * means JSON, or JSONL when the first two lines each parse as a value; Markdown headings,
 * fences or front matter mean Markdown; anything else is text.
 *
 * @example
 * ```ts
 * detectKind(new TextEncoder().encode('{"a":1}\n{"a":2}\n')); // 'jsonl'
 * ```
 */
export function detectKind(head: Uint8Array): ArtifactKind {
  if (head.includes(0)) return 'binary';
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const lines = trimmed.split('\n').filter((line) => line.trim() !== '');
    const parses = (line: string | undefined) => {
      try {
        JSON.parse(line ?? '');
        return true;
      } catch {
        return false;
      }
    };
    if (lines.length >= 2 && parses(lines[0]) && parses(lines[1])) return 'jsonl';
    return 'json';
  }
  return markdownSignals.some((signal) => signal.test(text)) ? 'markdown' : 'text';
}
