// The fixtures the provider adapter specs share: a ~20 MB service log with one ERROR line deep
// inside, streamed in big chunks the way a real tool streams, the tool that returns it, and a
// PNG and a PDF for the media cases.
import { defineTool } from 'spoolforge';
import { z } from 'zod';
import {
  callIdsOf,
  type ScriptedReply,
  type ScriptedTurn,
} from '../../examples/support/scripted-model.js';

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

/**
 * The model of the 20 MB scenario: it runs `produce_log`; greps the spooled log for the ERROR
 * line and for a frequent pattern (a cut answer); queries a grep's own output by its id (the
 * recursion break: an error result naming the valid ids); reads around the error line with the
 * first id the error names (`idPattern` captures one); answers with the evidence.
 */
export function investigationScript(options: {
  /** The id the model gives the first grep's output when it tries to query it. */
  grepId: (turn: ScriptedTurn) => string | undefined;
  idPattern: RegExp;
}) {
  return (turn: ScriptedTurn): ScriptedReply => {
    const [callId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
    const last = turn.results.at(-1);
    if (!callId) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
    if (turn.index === 1) {
      return {
        toolCalls: [
          { name: 'artifact_grep', arguments: { callId, pattern: 'ERROR', fixed: true } },
          { name: 'artifact_grep', arguments: { callId, pattern: 'status=200' } },
        ],
      };
    }
    if (turn.index === 2) {
      const grepId = options.grepId(turn);
      return {
        toolCalls: [{ name: 'artifact_grep', arguments: { callId: grepId, pattern: 'x' } }],
      };
    }
    if (turn.index === 3) {
      const valid = options.idPattern.exec(last?.text ?? '')?.[1] ?? '';
      const [start, end] = [errorLineNumber - 1, errorLineNumber + 1];
      return { toolCalls: [{ name: 'artifact_read', arguments: { callId: valid, start, end } }] };
    }
    const evidence = (last?.text ?? '').split('\n').find((text) => text.includes('ERROR'));
    return { text: `Root cause: ${evidence}` };
  };
}

/**
 * A model that makes mistakes: after `produce_log` (500 lines, spooled), five bad calls (a
 * negative `last`, a grep with a number for its pattern (and `grepCallId`, when given, for its
 * callId), a string for a number, bad arguments to the agent's own tool, a tool that does not
 * exist), then a good read, then an answer.
 */
export function mistakesScript(options: { grepCallId?: string } = {}) {
  return (turn: ScriptedTurn): ScriptedReply => {
    const [callId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_read'));
    if (turn.index === 0)
      return { toolCalls: [{ name: 'produce_log', arguments: { lines: 500 } }] };
    if (turn.index === 1) {
      return {
        toolCalls: [
          { name: 'artifact_read', arguments: { callId, last: -5 } },
          {
            name: 'artifact_grep',
            arguments: { callId: options.grepCallId ?? callId, pattern: 42 },
          },
          { name: 'artifact_read', arguments: { callId, start: 'ten' } },
          { name: 'produce_log', arguments: { lines: 'many' } },
          { name: 'no_such_tool', arguments: {} },
        ],
      };
    }
    if (turn.index === 2)
      return { toolCalls: [{ name: 'artifact_read', arguments: { callId, end: 2 } }] };
    return { text: 'done' };
  };
}
