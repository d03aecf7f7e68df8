/**
 * A media type without its parameters, lower-cased: `Application/JSON; charset=utf-8` →
 * `application/json`.
 *
 * @example
 * ```ts
 * mediaTypeEssence('text/Markdown; charset=utf-8'); // 'text/markdown'
 * ```
 */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Whether a media type essence matches one of a kind's `mediaTypes` entries: an exact type
 * (`text/csv`), every subtype of a type (`text/*`), or a structured-syntax suffix (`+json`).
 *
 * @example
 * ```ts
 * matchesMediaType('+json', 'application/geo+json'); // true
 * ```
 */
export function matchesMediaType(pattern: string, essence: string): boolean {
  if (pattern.startsWith('+')) return essence.endsWith(pattern);
  if (pattern.endsWith('/*')) return essence.startsWith(pattern.slice(0, -1));
  return pattern === essence;
}

/** Whether `pattern` names one media type rather than a family of them. */
export function isExactMediaType(pattern: string): boolean {
  return !pattern.startsWith('+') && !pattern.endsWith('/*');
}

/** JSON Lines goes by several names. */
export const jsonlMediaTypes: readonly string[] = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonl',
  'application/jsonlines',
  'application/x-jsonlines',
  'application/json-seq',
  'application/x-json-seq',
];

/** JSON, and any structured-syntax `+json` suffix. */
export const jsonMediaTypes: readonly string[] = ['application/json', '+json'];

/**
 * `json` or `jsonl` for a media type that declares one of them, else `undefined`.
 *
 * @example
 * ```ts
 * jsonFormatOfMediaType('application/x-ndjson; charset=utf-8'); // 'jsonl'
 * ```
 */
export function jsonFormatOfMediaType(mediaType: string): 'json' | 'jsonl' | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (jsonlMediaTypes.includes(essence)) return 'jsonl';
  return jsonMediaTypes.some((pattern) => matchesMediaType(pattern, essence)) ? 'json' : undefined;
}
