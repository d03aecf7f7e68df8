import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirectory } from '../shared/bench-paths.js';
import { JsonRecordComposer, type RecordFacts } from './json-record-composer.js';

/** Bump whenever the output changes, so cached files from an older generator are not reused. */
export const jsonGeneratorVersion = 1;

const seed = 0x15011;
/** Records are joined into batches this large before a write, to keep per-write cost small. */
const batchBytes = 4 * 1024 * 1024;

/**
 * The cached JSON array and JSONL files of the same records, and what the generator counted.
 *
 * @example
 * ```ts
 * const { jsonPath, jsonlPath, facts } = await ensureJsonData({ size: 64 * 1024 * 1024 });
 * ```
 */
export interface JsonData extends RecordFacts {
  jsonPath: string;
  jsonlPath: string;
  jsonBytes: number;
  jsonlBytes: number;
}

/**
 * Returns a JSON array file of about `size` bytes (`[` + records joined by `,\n` + `]`) and a
 * JSONL file of the same records, generating both on first use (streamed, seeded, so the same
 * bytes every time) and reusing the cached files after. A `.facts.json` file next to them is
 * written last, so its presence means both files are complete.
 *
 * @example
 * ```ts
 * const data = await ensureJsonData({ size: 1024 ** 3 });
 * console.log(data.recordCount, data.serverErrorCount);
 * ```
 */
export async function ensureJsonData(options: {
  size: number;
  directory?: string;
}): Promise<JsonData> {
  const { size } = options;
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new RangeError(`size must be a positive number of bytes, got ${size}`);
  }
  const directory = options.directory ?? dataDirectory;
  const base = join(directory, `api-records-${size}-v${jsonGeneratorVersion}`);
  const paths = { jsonPath: `${base}.json`, jsonlPath: `${base}.jsonl` };
  const factsPath = `${base}.facts.json`;
  const cached = await readFile(factsPath, 'utf8').catch(() => undefined);
  if (cached !== undefined)
    return { ...paths, ...(JSON.parse(cached) as Omit<JsonData, 'jsonPath' | 'jsonlPath'>) };
  await mkdir(directory, { recursive: true });
  // Written under temporary names so an interrupted run never leaves truncated cached files.
  const partial = {
    json: `${paths.jsonPath}.${process.pid}.partial`,
    jsonl: `${paths.jsonlPath}.${process.pid}.partial`,
  };
  try {
    const facts = await writeRecords(partial.json, partial.jsonl, size);
    await rename(partial.json, paths.jsonPath);
    await rename(partial.jsonl, paths.jsonlPath);
    await writeFile(factsPath, `${JSON.stringify(facts, null, 2)}\n`);
    return { ...paths, ...facts };
  } catch (error) {
    await rm(partial.json, { force: true });
    await rm(partial.jsonl, { force: true });
    throw error;
  }
}

async function writeRecords(
  jsonPath: string,
  jsonlPath: string,
  size: number,
): Promise<Omit<JsonData, 'jsonPath' | 'jsonlPath'>> {
  const json = createWriteStream(jsonPath, { highWaterMark: batchBytes });
  const jsonl = createWriteStream(jsonlPath, { highWaterMark: batchBytes });
  const composer = new JsonRecordComposer(seed);
  let jsonBytes = 1;
  let jsonlBytes = 0;
  await write(json, '[');
  // The closing `]` takes one byte: stop once the records reach the size without it.
  while (jsonBytes < size - 1) {
    const batch: string[] = [];
    let batchLength = 0;
    while (batchLength < batchBytes && jsonBytes + batchLength < size - 1) {
      const record = composer.next();
      batch.push(record);
      // Each record but the first adds a 2-byte `,\n` in the array and a `\n` in the JSONL.
      batchLength += Buffer.byteLength(record) + 2;
    }
    const records = batch.join('\n');
    const separator = jsonBytes === 1 ? '' : ',\n';
    const arrayText = `${separator}${batch.join(',\n')}`;
    jsonBytes += Buffer.byteLength(arrayText);
    jsonlBytes += Buffer.byteLength(records) + 1;
    await Promise.all([write(json, arrayText), write(jsonl, `${records}\n`)]);
  }
  await write(json, ']');
  jsonBytes += 1;
  await Promise.all([close(json), close(jsonl)]);
  return { ...composer.facts, jsonBytes, jsonlBytes };
}

/** Waits for `drain` when the stream's buffer is full (once() rejects if the stream errors). */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function close(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}
