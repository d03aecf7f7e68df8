// A conversation revived by a pool keeps the handles of the calls its new session offers again,
// where a log opened on its own rewrites them: a model call recorded after the revival must be
// read back as it was sent, handles kept and all.
import { join } from 'node:path';
import { ArtifactStore, ConversationPool, projectContext } from 'spoolforge';
import {
  chatCompletionsFormat,
  OpenAIToolSession,
  toChatCompletionsMessages,
} from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { fetchLogs, projectionOptions, scriptedTurn } from '../helpers/pooled-turns.js';
import { tempDirectory } from '../helpers/temp-files.js';

describe('model calls of a pooled conversation', () => {
  it('reads back a call recorded after a revival that kept handles, as it was sent', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    for (let turn = 0; turn < 4; turn++) {
      await pool.use('ticket', (conversation) => scriptedTurn(conversation, turn));
    }
    expect(await pool.hibernate('ticket')).toBe(true);
    const { request, read } = await pool.use('ticket', async ({ log, session }) => {
      const dispatch = new OpenAIToolSession({ session }).chatCompletionsDispatch();
      const view = await projectContext(log.history(), {
        ...projectionOptions,
        tools: dispatch.tools,
      });
      const sent = {
        model: 'scripted',
        messages: toChatCompletionsMessages(view.messages),
        tools: dispatch.tools,
      };
      const record = await log.modelCalls.record({
        projection: view,
        request: sent,
        format: chatCompletionsFormat,
        startedAt: Date.now(),
      });
      return {
        request: sent,
        read: await log.modelCalls.request(record.call, { formats: [chatCompletionsFormat] }),
      };
    });
    // The revived session offers call_0 again: its handle names artifact_grep, not the cache.
    expect(JSON.stringify(request.messages)).toContain('artifact_grep');
    expect(JSON.stringify(read)).toBe(JSON.stringify(request));
  });
});
