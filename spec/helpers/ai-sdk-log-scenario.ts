// The 20 MB log scenario every AI SDK entry point runs (generateText, streamText): the model
// greps a spooled log through the forged artifact_grep with the callId from the enum, then asks
// for the grep's own call id (a mistake it must be able to read), then answers.
import { SpooledArtifact, SpoolforgeError } from 'spoolforge';
import type { SpoolforgeToolSet } from 'spoolforge/ai-sdk';
import { expect } from 'vitest';
import { callIdsOf, type ScriptedModel } from '../../examples/support/scripted-model.js';
import { failureLines, failureText, sentChat, toolNames } from './ai-sdk-scripted.js';
import { logBytes, serviceLogAnswer, serviceLogScript } from './service-log-scenario.js';

const forgedNames = (turn: { tools: { name: string }[] }) =>
  toolNames(turn).filter((name) => name.startsWith('artifact_'));

/** What a run of the scenario left to check, whichever entry point ran it. */
export interface LogScenarioRun {
  model: ScriptedModel;
  spoolforge: SpoolforgeToolSet;
  text: string;
  steps: readonly { content: readonly { type: string; toolName?: string; error?: unknown }[] }[];
}

export const logScenario = {
  bytes: logBytes,

  /** The model's side: produce the log, grep it, query the grep's own call, answer. */
  script: serviceLogScript,

  /** What the model was sent and what the session recorded. */
  async expect(run: LogScenarioRun): Promise<void> {
    expect(run.text).toBe(serviceLogAnswer);
    expect(run.model.requests).toHaveLength(4);

    // Request 1: nothing spooled yet, so no forged tool is offered.
    expect(toolNames(sentChat(run.model, 0))).toEqual(['produce_log']);

    // Request 2: the 20 MB output is only a handle; the forged tools carry the callId enum.
    const second = sentChat(run.model, 1);
    const handle = second.results.find((result) => result.callId === 'call_0_0');
    expect(handle?.isError).toBe(false);
    expect(Buffer.byteLength(handle?.text ?? '')).toBeLessThan(2_000);
    expect(handle?.text).toContain('call_0_0');
    expect(handle?.text).toContain('artifact_grep');
    expect(JSON.stringify(second.body).length).toBeLessThan(20_000);
    expect(forgedNames(second)).toEqual(
      expect.arrayContaining(['artifact_read', 'artifact_grep', 'artifact_list']),
    );
    for (const tool of second.tools.filter((offered) => offered.name !== 'artifact_list')) {
      if (tool.name.startsWith('artifact_')) expect(callIdsOf(tool)).toEqual(['call_0_0']);
    }
    const spooled = run.spoolforge.session.toolCalls[0]?.results;
    expect(spooled).toBeInstanceOf(SpooledArtifact);
    expect(await (spooled as SpooledArtifact).byteLength()).toBeGreaterThanOrEqual(logBytes);

    // Request 3: the grep answer is bounded and numbered 1-based; the grep call is not offered.
    const third = sentChat(run.model, 2);
    const grep = third.results.find((result) => result.callId === 'call_1_0');
    expect(grep?.isError).toBe(false);
    expect(grep?.text.split('\n')).toEqual([
      `${(failureLines[0] ?? 0) + 1}:${failureText(failureLines[0] ?? 0)}`,
      `${(failureLines[1] ?? 0) + 1}:${failureText(failureLines[1] ?? 0)}`,
      '2 matching lines (stopped at maxCount).',
      '',
    ]);
    expect(callIdsOf(third.tools.find((tool) => tool.name === 'artifact_grep'))).toEqual([
      'call_0_0',
    ]);

    // Request 4: querying the grep's own call id is a tool error the model reads; the loop went on.
    const fourth = sentChat(run.model, 3);
    const refused = fourth.results.find((result) => result.callId === 'call_2_0');
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toMatch(
      /^Error \(E_INVALID_TOOL_ARGS\): Invalid arguments for artifact_grep/,
    );
    expect(refused?.text).toContain('callId must be one of "call_0_0"');
    expect(refused?.text).not.toContain('SpoolforgeError');
    const toolError = run.steps[2]?.content.find((part) => part.type === 'tool-error');
    expect(toolError?.toolName).toBe('artifact_grep');
    const error = toolError?.error;
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_INVALID_TOOL_ARGS');

    // Every call ran through the session; the artifact tools' calls are marked as such.
    expect(
      run.spoolforge.session.toolCalls.map((call) => [
        call.id,
        call.fromArtifactTool,
        call.error?.code,
      ]),
    ).toEqual([
      ['call_0_0', false, undefined],
      ['call_1_0', true, undefined],
      ['call_2_0', true, 'E_INVALID_TOOL_ARGS'],
    ]);

    // The last step finished: its dispatch is acked and its ephemeral tools are pruned.
    expect(run.spoolforge.dispatch?.state).toBe('acked');
    expect(run.spoolforge.dispatch?.tools?.list().map((tool) => tool.name)).toEqual([
      'produce_log',
    ]);
  },
};
