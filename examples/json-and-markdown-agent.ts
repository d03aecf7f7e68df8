// An Anthropic agent with two tools that return too much: list_orders gives 200,000 orders as
// JSON (about 30 MB) and fetch_runbook a long Markdown runbook. spoolforge sniffs each result,
// spools it as a SpooledJsonArtifact or SpooledMarkdownArtifact, and forges typed tools for it:
// the model learns the orders' shape, filters them and reads one runbook section, never the
// whole of either.
//   npx tsx examples/json-and-markdown-agent.ts
// Without ANTHROPIC_API_KEY a scripted model on 127.0.0.1 plays the model (offline, as in CI).
import Anthropic from '@anthropic-ai/sdk';
import { defineTool, SpooledArtifact } from 'spoolforge';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { z } from 'zod';
import { anthropicWire } from './support/anthropic-wire.js';
import { callIdsOf, type ScriptedTurn, startScriptedModel } from './support/scripted-model.js';

const statuses = ['paid', 'paid', 'paid', 'shipped', 'refunded', 'failed'] as const;
const listOrders = defineTool({
  name: 'list_orders',
  description: 'Lists every order of the last 30 days as a JSON array.',
  inputSchema: z.object({}),
  // Streamed: the array is never one string in this process either.
  handler: async function* () {
    yield '[';
    for (let id = 1; id <= 200_000; id++) {
      const order = {
        id,
        status: statuses[(id * 7) % statuses.length],
        amount: (id * 37) % 1000,
        customer: { id: id % 9_973, country: ['DE', 'FR', 'US', 'JP'][id % 4] },
        ...(id % 40_000 === 0 ? { error: { code: 'CARD_DECLINED', gateway: 'acme-pay' } } : {}),
      };
      yield `${id === 1 ? '' : ',\n'}${JSON.stringify(order)}`;
    }
    yield ']';
  },
});

const section = (title: string, body: string) => `## ${title}\n\n${body}\n\n`;
const fetchRunbook = defineTool({
  name: 'fetch_runbook',
  description: 'Fetches the payments team runbook (Markdown).',
  inputSchema: z.object({}),
  handler: () =>
    `# Payments runbook\n\n${Array.from({ length: 400 }, (_, index) =>
      section(
        `Procedure ${index + 1}`,
        `Steps for case ${index + 1}.\n\n\`\`\`sh\n# not a heading\nrun step ${index}\n\`\`\``,
      ),
    ).join(
      '',
    )}${section('Card declined', 'Retry once through the backup gateway, then refund and notify the customer.')}`,
});

/** What the scripted model does, turn by turn, with the call ids the handles gave it. */
function script(turn: ScriptedTurn) {
  const idsFor = (name: string) => callIdsOf(turn.tools.find((tool) => tool.name === name));
  const [orders] = idsFor('artifact_json');
  const [runbook] = idsFor('artifact_md');
  const steps = [
    {
      toolCalls: [
        { name: 'list_orders', arguments: {} },
        { name: 'fetch_runbook', arguments: {} },
      ],
    },
    { toolCalls: [{ name: 'artifact_json', arguments: { callId: orders, op: 'shape' } }] },
    {
      toolCalls: [
        { name: 'artifact_json', arguments: { callId: orders, op: 'filter', path: '@.error' } },
      ],
    },
    {
      toolCalls: [
        { name: 'artifact_md', arguments: { callId: runbook, op: 'headings', depth: 1 } },
      ],
    },
    {
      toolCalls: [
        {
          name: 'artifact_md',
          arguments: { callId: runbook, op: 'section', heading: 'Card declined' },
        },
      ],
    },
  ];
  const advice = turn.results.at(-1)?.text.match(/^\d+:(Retry.*)$/m)?.[1];
  return (
    steps[turn.index] ?? { text: `5 orders failed with CARD_DECLINED. The runbook: ${advice}` }
  );
}

const apiKey = process.env.ANTHROPIC_API_KEY;
const scripted = apiKey ? undefined : await startScriptedModel({ wires: [anthropicWire], script });
const client = scripted
  ? new Anthropic({ apiKey: 'offline', baseURL: scripted.url, maxRetries: 0 })
  : new Anthropic({ apiKey });
const model = scripted ? 'scripted' : (process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5');

try {
  await using agent = new AnthropicToolSession({ tools: [listOrders, fetchRunbook] });
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content:
        'Which orders failed with an error, and what does the runbook say to do about it? ' +
        'Fetch the orders and the runbook, then query them.',
    },
  ];
  for (let turn = 1; turn <= 10; turn++) {
    const dispatch = agent.dispatch();
    const message = await dispatch.track(
      client.messages.create({ model, max_tokens: 2048, messages, tools: dispatch.tools }),
    );
    messages.push({ role: 'assistant', content: message.content });
    const results = await dispatch.run(message.content);
    if (results.length === 0) {
      const answer = message.content.map((block) => (block.type === 'text' ? block.text : ''));
      console.log(`answer: ${answer.join('').trim()}`);
      // Offline, the script's answer quotes what the tools returned: check they returned it.
      if (scripted && !answer.join('').includes('Retry once through the backup gateway')) {
        throw new Error('the runbook section did not come back through artifact_md op section');
      }
      break;
    }
    for (const call of agent.session.toolCalls.slice(-results.length)) {
      const kind = call.results instanceof SpooledArtifact ? ` → spooled ${call.results.kind}` : '';
      console.log(`turn ${turn}: ${call.name} ${JSON.stringify(call.arguments)}${kind}`);
      if (call.error) throw new Error(`${call.name} failed: ${call.error.message}`);
    }
    for (const result of results) {
      const text =
        typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
      console.log(`  ${text.split('\n').slice(0, 6).join('\n  ')}`);
    }
    messages.push({ role: 'user', content: results });
  }
} finally {
  await scripted?.close();
}
