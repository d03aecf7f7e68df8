// The projection's token count must be an upper bound of what each adapter's converter sends:
// seeded random conversations are projected at a budget, rendered for each API, and the rendered
// request is counted the way the providers bill it (content, role overhead, tool call JSON, ids,
// tool definitions). A history left with an unanswered call (a crash mid-run) must render with
// every call answered.
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelMessage } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { type ConversationMessage, type ConversationToolCall, projectContext } from 'spoolforge';
import { toModelMessages } from 'spoolforge/ai-sdk';
import { toAnthropicMessages } from 'spoolforge/anthropic';
import { toChatCompletionsMessages, toResponsesInput } from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

const text = (value: string) => countTokens(value, { disallowedSpecial: new Set() });
/** Per message framing (`<|start|>role…<|end|>`), and the reply's priming. */
const perMessage = 3;
const priming = 3;

const instructions = 'You investigate build failures. Quote ids exactly; query outputs by ref.';

/** One API: its tool definitions, how the projection renders, how the provider counts it. */
interface Api {
  name: string;
  tools: unknown;
  tokens(messages: readonly ConversationMessage[]): number;
  /** Every tool call id in the rendered request, and every id a tool result answers. */
  pairs(messages: readonly ConversationMessage[]): { calls: string[]; results: string[] };
}

const schema = {
  type: 'object',
  properties: { target: { type: 'string', description: 'What to build' } },
  required: ['target'],
};

const chatCompletions: Api = {
  name: 'OpenAI Chat Completions',
  tools: [
    { type: 'function', function: { name: 'run_build', description: 'Build', parameters: schema } },
  ],
  tokens(messages) {
    let tokens = priming + text(JSON.stringify(this.tools));
    for (const message of toChatCompletionsMessages(messages, { instructions })) {
      tokens += perMessage + text(message.role);
      if (typeof message.content === 'string') tokens += text(message.content);
      if (message.role === 'assistant' && message.tool_calls)
        tokens += text(JSON.stringify(message.tool_calls));
      if (message.role === 'tool') tokens += text(message.tool_call_id);
    }
    return tokens;
  },
  pairs(messages) {
    const rendered: ChatCompletionMessageParam[] = toChatCompletionsMessages(messages);
    return {
      calls: rendered.flatMap((message) =>
        message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
      ),
      results: rendered.flatMap((message) =>
        message.role === 'tool' ? [message.tool_call_id] : [],
      ),
    };
  },
};

const responses: Api = {
  name: 'OpenAI Responses',
  tools: [
    {
      type: 'function',
      name: 'run_build',
      description: 'Build',
      parameters: schema,
      strict: false,
    },
  ],
  tokens(messages) {
    let tokens = priming + text(JSON.stringify(this.tools)) + perMessage + text(instructions);
    for (const item of toResponsesInput(messages) as unknown as Record<string, string>[]) {
      tokens += perMessage;
      if (item.type === 'message')
        tokens += text(item.role as string) + text(item.content as string);
      else if (item.type === 'function_call') tokens += text(JSON.stringify(item));
      else tokens += text(item.call_id as string) + text(item.output as string);
    }
    return tokens;
  },
  pairs(messages) {
    const items: ResponseInputItem[] = toResponsesInput(messages);
    return {
      calls: items.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : [])),
      results: items.flatMap((item) =>
        item.type === 'function_call_output' ? [item.call_id] : [],
      ),
    };
  },
};

const anthropicBlocks = (message: Anthropic.MessageParam) =>
  typeof message.content === 'string'
    ? [{ type: 'text' as const, text: message.content }]
    : message.content;

const anthropic: Api = {
  name: 'Anthropic Messages',
  tools: [{ name: 'run_build', description: 'Build', input_schema: schema }],
  tokens(messages) {
    let tokens = priming + text(JSON.stringify(this.tools)) + perMessage + text(instructions);
    for (const message of toAnthropicMessages(messages)) {
      tokens += perMessage + text(message.role);
      for (const block of anthropicBlocks(message)) {
        if (block.type === 'text') tokens += text(block.text);
        else if (block.type === 'tool_use') tokens += text(JSON.stringify(block));
        else if (block.type === 'tool_result') {
          tokens += text(block.tool_use_id) + (block.is_error ? 1 : 0);
          if (typeof block.content === 'string') tokens += text(block.content);
        }
      }
    }
    return tokens;
  },
  pairs(messages) {
    const blocks = toAnthropicMessages(messages).flatMap(anthropicBlocks);
    return {
      calls: blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])),
      results: blocks.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])),
    };
  },
};

type ModelPart = Exclude<
  Extract<ModelMessage, { role: 'assistant' | 'tool' }>['content'],
  string
>[number];

const modelParts = (message: ModelMessage): readonly ModelPart[] =>
  typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : (message.content as readonly ModelPart[]);

const aiSdk: Api = {
  name: 'Vercel AI SDK',
  tools: { run_build: { description: 'Build', inputSchema: schema } },
  tokens(messages) {
    let tokens = priming + text(JSON.stringify(this.tools));
    for (const message of toModelMessages(messages, { instructions })) {
      tokens += perMessage + text(message.role);
      for (const part of modelParts(message)) {
        if (part.type === 'text') tokens += text(part.text);
        else if (part.type === 'tool-call') tokens += text(JSON.stringify(part));
        else if (part.type === 'tool-result') {
          const { output } = part;
          tokens += text(part.toolCallId) + text(part.toolName);
          if (output.type === 'text' || output.type === 'error-text')
            tokens += text(output.value) + (output.type === 'error-text' ? 1 : 0);
        }
      }
    }
    return tokens;
  },
  pairs(messages) {
    const parts = toModelMessages(messages).flatMap(modelParts);
    return {
      calls: parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : [])),
      results: parts.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : [])),
    };
  },
};

const apis = [chatCompletions, responses, anthropic, aiSdk];

const words = [
  'build',
  'failed',
  'linker',
  'error:',
  'src/spool.c',
  '4812',
  'retry',
  'ok',
  'é',
  '日本',
  '{"a":1}',
  '\t',
  '"quoted"',
];
const idAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A conversation of seeded random sizes: short and long messages, calls, results, errors. */
function conversation(seed: number): ConversationMessage[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const prose = (count: number) =>
    Array.from({ length: count }, () => (next() < 0.1 ? '\n' : pick(words))).join(' ');
  const output = () => {
    const size = Math.floor(10 ** (1 + next() * 4.5));
    const kind = next();
    // Blobs with no split point in them: the tokenizer counts them in pieces.
    if (kind < 0.1) return randomText(next, 'abcdefghijklmnopqrstuvwxyz日本語', size);
    return kind < 0.25
      ? randomText(next, `${idAlphabet}+/=`, size)
      : Array.from({ length: Math.ceil(size / 60) }, (_, line) => `${line + 1}: ${prose(8)}`).join(
          '\n',
        );
  };
  const history: ConversationMessage[] = [];
  const turns = 2 + Math.floor(next() * 12);
  for (let turn = 0; turn < turns; turn++) {
    history.push({ role: 'user', content: prose(next() < 0.2 ? 600 : 12) });
    for (let step = Math.floor(next() * 3); step > 0; step--) {
      const calls: ConversationToolCall[] = Array.from(
        { length: 1 + Math.floor(next() * 3) },
        () => ({
          id: `${pick(['call_', 'toolu_01', 'fc_'])}${randomText(next, idAlphabet, 24)}`,
          name: pick(['run_build', 'fetch_logs', 'artifact_grep']),
          arguments:
            next() < 0.1
              ? 'not json {'
              : JSON.stringify({ target: prose(4), n: 3, nested: { q: '"x"' } }),
        }),
      );
      history.push({ role: 'assistant', content: next() < 0.5 ? '' : prose(20), toolCalls: calls });
      for (const call of calls) {
        // Now and then a crash left a call unanswered.
        if (next() < 0.05) continue;
        history.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: output(),
          ...(next() < 0.5 ? { ref: randomText(next, 'abcdef0123456789', 32) } : {}),
          ...(next() < 0.1 ? { isError: true } : {}),
        });
      }
    }
    history.push({ role: 'assistant', content: prose(next() < 0.2 ? 400 : 30) });
  }
  return history;
}

describe('projectContext counts no fewer tokens than any adapter sends', () => {
  it('for seeded random conversations at random budgets, rendered for every API', async () => {
    let requests = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const history = conversation(seed);
      const budget = 1_000 + Math.floor(seededRandom(seed * 7)() * 15_000);
      for (const api of apis) {
        const projection = await projectContext(history, {
          contextBudgetTokens: budget,
          maxResultBytes: 8 * 1024,
          encoding: 'o200k_base',
          instructions,
          tools: api.tools,
        });
        const sent = api.tokens(projection.messages);
        expect(sent, `${api.name}, seed ${seed}`).toBeLessThanOrEqual(projection.tokens);
        if (!projection.overBudget) {
          expect(sent, `${api.name}, seed ${seed}`).toBeLessThanOrEqual(budget);
          requests++;
        }
      }
    }
    expect(requests).toBeGreaterThan(100);
  });

  it('for blobs with no split point, which the tokenizer counts in pieces', async () => {
    const next = seededRandom(7);
    const alphabets = ['abcdefghijklmnopqrstuvwxyz', `${idAlphabet}`, '=', '日本語の文章', '😀🎉'];
    for (let index = 0; index < 300; index++) {
      const alphabet = alphabets[index % alphabets.length] ?? '';
      const content = randomText(next, alphabet, 500 + Math.floor(next() * 3_000));
      const projection = await projectContext([{ role: 'user', content }], {
        contextBudgetTokens: 100_000,
        encoding: 'o200k_base',
        instructions,
        tools: chatCompletions.tools,
      });
      const sent = chatCompletions.tokens(projection.messages);
      expect(sent, `text ${index}`).toBeLessThanOrEqual(projection.tokens);
    }
  });

  it('renders every call with its result, whichever calls a crash left unanswered', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const projection = await projectContext(conversation(seed), {
        contextBudgetTokens: 20_000,
        maxResultBytes: 8 * 1024,
      });
      for (const api of apis) {
        const { calls, results } = api.pairs(projection.messages);
        expect(results.sort(), `${api.name}, seed ${seed}`).toEqual(calls.sort());
      }
    }
  });
});
