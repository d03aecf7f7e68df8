// An OpenAI agent whose tool returns one line of minified JSON: 900 audit events,
// JSON.stringify'd (about 200 KB, no newline anywhere), as many APIs answer. Line-based tools
// cannot page through a single line, but spoolforge sniffs the result as JSON, spools it as a
// SpooledJsonArtifact and forges the JSON tools for it: the model learns the events' shape,
// filters the denied ones and reads one field, and is never shown the 200 KB.
//   npx tsx examples/minified-json-agent.ts
// Without OPENAI_API_KEY a scripted model on 127.0.0.1 plays the model (offline, as in CI).
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { defineTool, SpooledJsonArtifact } from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { z } from 'zod';
import { openAIChatWire } from './support/openai-chat-wire.js';
import { callIdsOf, type ScriptedTurn, startScriptedModel } from './support/scripted-model.js';

const actions = ['login', 'read', 'write', 'export', 'delete'] as const;
/** The events: every 300th a denied export by the same service account. */
const events = Array.from({ length: 900 }, (_, index) => ({
  id: `evt-${String(index).padStart(5, '0')}`,
  at: new Date(Date.UTC(2026, 10, 1) + index * 60_000).toISOString(),
  actor: index % 300 === 299 ? 'svc-reporting' : `user-${(index * 31) % 97}`,
  action: index % 300 === 299 ? 'export' : actions[index % actions.length],
  outcome: index % 300 === 299 ? 'denied' : 'allowed',
  resource: { kind: 'table', name: `sales_${index % 12}`, rows: (index * 7919) % 100_000 },
  client: { ip: `10.0.${index % 256}.${(index * 13) % 256}`, agent: 'audit-sdk/4.2 (linux)' },
}));

const fetchAuditLog = defineTool({
  name: 'fetch_audit_log',
  description: 'Fetches the audit events of the data warehouse for November (a JSON array).',
  inputSchema: z.object({}),
  handler: () => JSON.stringify(events), // one line: minified, as the API returns it
});

/** What the scripted model does, turn by turn, with the call id the handle gave it. */
function script(turn: ScriptedTurn) {
  const [audit] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_json'));
  const steps = [
    { toolCalls: [{ name: 'fetch_audit_log', arguments: {} }] },
    { toolCalls: [{ name: 'artifact_json', arguments: { callId: audit, op: 'shape' } }] },
    {
      toolCalls: [
        {
          name: 'artifact_json',
          arguments: { callId: audit, op: 'filter', path: '@.outcome == "denied"' },
        },
      ],
    },
  ];
  const actors = new Set(turn.results.at(-1)?.text.match(/svc-[a-z]+/g));
  return steps[turn.index] ?? { text: `Denied exports, all by: ${[...actors].join(', ')}.` };
}

const apiKey = process.env.OPENAI_API_KEY;
const scripted = apiKey ? undefined : await startScriptedModel({ wires: [openAIChatWire], script });
const client = new OpenAI(
  scripted ? { apiKey: 'offline', baseURL: `${scripted.url}/v1` } : { apiKey: apiKey ?? '' },
);
const model = scripted ? 'scripted' : (process.env.OPENAI_MODEL ?? 'gpt-4o-mini');

try {
  await using agent = new OpenAIToolSession({ tools: [fetchAuditLog] });
  const messages: ChatCompletionMessageParam[] = [
    {
      role: 'user',
      content:
        'Fetch the audit log and tell me who had exports denied. The log is large: query it ' +
        'with the artifact_json tool.',
    },
  ];
  for (let turn = 1; turn <= 8; turn++) {
    const dispatch = agent.chatCompletionsDispatch();
    const completion = await dispatch.track(
      client.chat.completions.create({ model, messages, tools: dispatch.tools }),
    );
    const message = completion.choices[0]?.message;
    if (!message?.tool_calls?.length) {
      console.log(`answer: ${message?.content}`);
      // Offline, the script's answer quotes what the filter returned: check it returned it.
      if (scripted && !message?.content?.includes('svc-reporting')) {
        throw new Error('the denied events did not come back through the artifact_json filter');
      }
      break;
    }
    messages.push(message);
    const answers = await dispatch.run(message.tool_calls);
    messages.push(...answers);
    for (const [index, call] of agent.session.toolCalls.slice(-answers.length).entries()) {
      const { results } = call;
      const bytes =
        results instanceof SpooledJsonArtifact
          ? ` → spooled JSON, ${await results.byteLength()} bytes`
          : '';
      console.log(`turn ${turn}: ${call.name} ${JSON.stringify(call.arguments)}${bytes}`);
      if (call.error) throw new Error(`${call.name} failed: ${call.error.message}`);
      const answer = answers[index];
      const text = typeof answer?.content === 'string' ? answer.content : '';
      console.log(`  ${text.split('\n').slice(0, 6).join('\n  ')}`);
    }
  }
} finally {
  await scripted?.close();
}
