import type { JsonData } from './generate-json.js';
import type { JsonMeasurement, JsonOperation } from './json-measurements.js';

/** The near-90 % slice's first entry, as `children/json-api.ts` takes it. */
export function sliceStart(data: JsonData): number {
  return Math.floor(data.recordCount * 0.9);
}

/**
 * The CLI's `spoolforge json` and `jq -c` on the same queries, both printing one id a line, so
 * the two do the same work (parse, filter, print) and are timed alike, spawn to exit: a
 * 10-entry slice at 90 %, the first 100 `status >= 500` records, all of them, and every
 * record's id. jq loads the array whole and reads JSONL record by record (`inputs`, so `limit`
 * stops it early).
 *
 * @example
 * ```ts
 * measurements.push(...cliMeasurements(data, 'jsonl', cliPath, true));
 * ```
 */
export function cliMeasurements(
  data: JsonData,
  format: 'json' | 'jsonl',
  cliPath: string,
  jq: boolean,
): Omit<JsonMeasurement, 'expected'>[] {
  const path = format === 'json' ? data.jsonPath : data.jsonlPath;
  const fileBytes = format === 'json' ? data.jsonBytes : data.jsonlBytes;
  const start = sliceStart(data);
  const cli: Partial<Record<JsonOperation, string[]>> = {
    slice: [`$[${start}:${start + 10}].id`],
    'filter-first-100': ['--limit', '100', '$[?(@.status >= 500)].id'],
    'filter-count': ['$[?(@.status >= 500)].id'],
    pluck: ['$[*].id'],
  };
  const jqPrograms: Record<'json' | 'jsonl', Partial<Record<JsonOperation, string[]>>> = {
    json: {
      slice: [`.[${start}:${start + 10}][] | .id`],
      'filter-first-100': ['limit(100; .[] | select(.status >= 500)) | .id'],
      'filter-count': ['.[] | select(.status >= 500) | .id'],
      pluck: ['.[] | .id'],
    },
    jsonl: {
      slice: [
        '-n',
        `limit(10; foreach inputs as $r (-1; . + 1; if . >= ${start} then $r.id else empty end))`,
      ],
      'filter-first-100': ['-n', 'limit(100; inputs | select(.status >= 500)) | .id'],
      'filter-count': ['select(.status >= 500) | .id'],
      pluck: ['.id'],
    },
  };
  const measurements: Omit<JsonMeasurement, 'expected'>[] = [];
  for (const operation of Object.keys(cli) as JsonOperation[]) {
    const base = { operation, format, fileBytes };
    const query = cli[operation] ?? [];
    const formatOption = ['--format', format];
    measurements.push({
      ...base,
      tool: 'spoolforge CLI',
      argv: [process.execPath, cliPath, 'json', ...formatOption, ...query, path],
    });
    const program = jqPrograms[format][operation];
    if (jq && program)
      measurements.push({ ...base, tool: 'jq -c', argv: ['jq', '-c', ...program, path] });
  }
  return measurements;
}

/**
 * What a tool that prints one id a line answered, in the words of the generator's facts.
 *
 * @example
 * ```ts
 * printedIdsAnswer('filter-count', '503\n1004\n'); // '2'
 * ```
 */
export function printedIdsAnswer(operation: JsonOperation, stdout: string): string {
  const ids = stdout.split('\n').filter((line) => line !== '');
  switch (operation) {
    case 'slice':
      return `${ids.length} entries, ids ${ids[0]}-${ids.at(-1)}`;
    case 'filter-first-100':
      return `${ids.length} matches, last id ${ids.at(-1)}`;
    default:
      return String(ids.length);
  }
}
