// The fixtures the provider adapter specs share: a ~20 MB service log with one ERROR line deep
// inside, streamed in big chunks the way a real tool streams, the tool that returns it, and a
// PNG and a PDF for the media cases.
import { defineTool } from 'spoolforge';
import { z } from 'zod';

// ~20 MB in 20 big chunks of 10,000 lines; one ERROR line in chunk 13.
const linesPerChunk = 10_000;
export const infoLine = `INFO GET /api/orders status=200 duration=12ms ${'x'.repeat(60)}\n`;
export const errorLine = 'ERROR upstream timeout after 30000ms request_id=req-7f3a\n';
const errorChunk = 13;
const errorOffset = 4_321;
/** The ERROR line's number, 1-based as models see it. */
export const errorLineNumber = errorChunk * linesPerChunk + errorOffset + 1;
const chunkCount = 20;
/** The log's size in bytes. */
export const logBytes =
  chunkCount * linesPerChunk * infoLine.length - infoLine.length + errorLine.length;

/** The ~20 MB log, chunk by chunk. */
export async function* twentyMegabyteLog() {
  const chunk = infoLine.repeat(linesPerChunk);
  for (let index = 0; index < chunkCount; index++) {
    yield index !== errorChunk
      ? chunk
      : infoLine.repeat(errorOffset) + errorLine + infoLine.repeat(linesPerChunk - errorOffset - 1);
  }
}

/** The whole log, or `lines` INFO lines and the ERROR line. */
export const produceLog = defineTool({
  name: 'produce_log',
  description: 'Returns the service log (large).',
  inputSchema: z.object({ lines: z.number().int().min(1).optional() }),
  handler: ({ lines }) =>
    lines === undefined ? twentyMegabyteLog() : infoLine.repeat(lines) + errorLine,
});

/** 4 KiB that start with the PNG signature. */
export const png = new Uint8Array(4096).map((_, index) => (index * 7919) % 256);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A small PDF. */
export const pdf = new TextEncoder().encode(`%PDF-1.4\n${'0123456789'.repeat(300)}\n%%EOF\n`);
