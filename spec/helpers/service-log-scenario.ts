// The scenario every framework adapter's spec runs through its real SDK: a tool streams a
// 20 MB service log; the model greps it through the forged `artifact_grep` with the `callId`
// from the enum, then queries the grep's own call (which no enum offers: the recursion break)
// and answers. The script plays the model; `expectServiceLogRequests` checks what the SDK sent.
import { defineTool, SpooledArtifact, type ToolSession } from 'spoolforge';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  callIdsOf,
  type ScriptedReply,
  type ScriptedTurn,
} from '../../examples/support/scripted-model.js';

/** The log's size: far past any inline threshold, and a body no request may carry. */
export const logBytes = 20 * 1024 * 1024;

/** 0-based lines that report the failure; the rest is routine traffic. */
export const failureLines = [50_000, 150_000, 250_000];

/** The text of failure line `line`. */
export const failureText = (line: number) =>
  `2026-05-01T12:00:00.000Z ERROR worker-3 disk quota exceeded on /var/data (request ${line})`;

/** The scripted model's answer once it has seen the failure lines. */
export const serviceLogAnswer = 'The disk quota on /var/data was exceeded.';

/** A service log of about `size` bytes, produced the way a tool streams one. */
export async function* serviceLog(size: number): AsyncGenerator<string> {
  const failures = new Set(failureLines);
  let chunk = '';
  let produced = 0;
  for (let line = 0; produced < size; line++) {
    const text = failures.has(line)
      ? failureText(line)
      : `2026-05-01T12:00:00.000Z INFO worker-${line % 8} request ${line} served in ${line % 97}ms`;
    chunk += `${text}\n`;
    if (chunk.length >= 64 * 1024) {
      produced += chunk.length;
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** `produce_log`, a tool that streams a {@link serviceLog} of `size` bytes. */
export const produceLog = (size: number) =>
  defineTool({
    name: 'produce_log',
    description: 'Returns the full log of the storage service.',
    inputSchema: z.object({}),
    handler: () => serviceLog(size),
  });

/**
 * The model of the scenario: `produce_log`; `artifact_grep` on the spooled call; the same on
 * the grep's own call id (a mistake); the answer.
 */
export function serviceLogScript(turn: ScriptedTurn): ScriptedReply {
  const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
  if (turn.index === 0) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
  if (turn.index === 1 && spooledId) {
    const grep = { callId: spooledId, pattern: 'disk quota', maxCount: 2 };
    return { toolCalls: [{ name: 'artifact_grep', arguments: grep }] };
  }
  if (turn.index === 2) {
    const grepCallId = turn.results.at(-1)?.callId ?? '';
    return {
      toolCalls: [{ name: 'artifact_grep', arguments: { callId: grepCallId, pattern: 'x' } }],
    };
  }
  return { text: serviceLogAnswer };
}

/** A request as a wire parsed it, with the body it came from. */
export type SentRequest = Omit<ScriptedTurn, 'index'> & { body: Record<string, unknown> };

const toolNames = (turn: SentRequest) => turn.tools.map((tool) => tool.name);

/**
 * Checks the four requests of the scenario and the session's calls, given the call ids the
 * wire gives the three tool calls (`call_0_0`, `call_1_0`, `call_2_0` on the scripted wires).
 */
export async function expectServiceLogRequests(
  requests: SentRequest[],
  session: ToolSession,
  callIds = ['call_0_0', 'call_1_0', 'call_2_0'],
): Promise<void> {
  const [logId, grepId, refusedId] = callIds;
  const [first, second, third, fourth] = requests;
  expect(requests).toHaveLength(4);

  // Request 1: nothing spooled yet, so no forged tool is offered.
  expect(first && toolNames(first)).toEqual(['produce_log']);

  // Request 2: the 20 MB output is only a handle; the forged tools carry the callId enum.
  const handle = second?.results.find((result) => result.callId === logId);
  expect(handle?.isError).toBe(false);
  expect(Buffer.byteLength(handle?.text ?? '')).toBeLessThan(2_000);
  expect(handle?.text).toContain(logId);
  expect(handle?.text).toContain('artifact_grep');
  expect(JSON.stringify(second?.body).length).toBeLessThan(20_000);
  const forged = second?.tools.filter((tool) => tool.name.startsWith('artifact_')) ?? [];
  expect(forged.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['artifact_read', 'artifact_grep', 'artifact_list']),
  );
  for (const tool of forged.filter((offered) => offered.name !== 'artifact_list')) {
    expect(callIdsOf(tool)).toEqual([logId]);
  }
  const spooled = session.toolCalls[0]?.results;
  expect(spooled).toBeInstanceOf(SpooledArtifact);
  expect(await (spooled as SpooledArtifact).byteLength()).toBeGreaterThanOrEqual(logBytes);

  // Request 3: the grep answer is bounded and numbered 1-based; the grep call is not offered.
  const grep = third?.results.find((result) => result.callId === grepId);
  expect(grep?.isError).toBe(false);
  expect(grep?.text.split('\n')).toEqual([
    `${(failureLines[0] ?? 0) + 1}:${failureText(failureLines[0] ?? 0)}`,
    `${(failureLines[1] ?? 0) + 1}:${failureText(failureLines[1] ?? 0)}`,
    '2 matching lines (stopped at maxCount).',
    '',
  ]);
  expect(callIdsOf(third?.tools.find((tool) => tool.name === 'artifact_grep'))).toEqual([logId]);

  // Request 4: querying the grep's own call id is an error the model reads; the loop went on.
  const refused = fourth?.results.find((result) => result.callId === refusedId);
  expect(refused?.isError).toBe(true);
  expect(refused?.text).toMatch(
    /^Error \(E_INVALID_TOOL_ARGS\): Invalid arguments for artifact_grep/,
  );
  expect(refused?.text).toContain(`callId must be one of "${logId}"`);

  // Every call ran through the session; the artifact tools' calls are marked as such.
  expect(
    session.toolCalls.map((call) => [call.id, call.fromArtifactTool, call.error?.code]),
  ).toEqual([
    [logId, false, undefined],
    [grepId, true, undefined],
    [refusedId, true, 'E_INVALID_TOOL_ARGS'],
  ]);
}
