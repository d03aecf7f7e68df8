// The checkout-api log the agent examples investigate (~10 MB, streamed as a real tool streams
// it, one failing request deep inside), the tool that returns it, and the token arithmetic the
// examples print per turn.
import { defineTool, SpooledArtifact, type ToolCall } from 'spoolforge';
import { approximateTokens } from 'spoolforge/engine';
import { z } from 'zod';

const logLines = 100_000;
const failingLine = 73_421;

/** A checkout service's log (~10 MB), streamed in batches as a real tool would stream it. */
export async function* checkoutLog(service: string) {
  const batch: string[] = [];
  for (let line = 1; line <= logLines; line++) {
    const time = new Date(Date.UTC(2025, 5, 1, 12) + line * 37).toISOString();
    const requestId = `req-${String(line).padStart(6, '0')}`;
    batch.push(
      line === failingLine
        ? `${time} ERROR ${service} request_id=${requestId} POST /api/pay 502 payments-gateway timed out after 30000ms`
        : `${time} INFO  ${service} request_id=${requestId} GET /api/cart/${line % 997} 200 ${line % 40}ms`,
    );
    if (batch.length === 5_000) yield `${batch.splice(0).join('\n')}\n`;
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}

/** The tool the examples give their agent. */
export const fetchServiceLog = defineTool({
  name: 'fetch_service_log',
  description: "Returns a service's full log for the last hour (large: query it, don't read it).",
  inputSchema: z.object({ service: z.string().describe('The service name, e.g. checkout-api.') }),
  handler: ({ service }) => checkoutLog(service),
});

/** A count as people read it: 3,700,050. */
export const number = (value: number) => value.toLocaleString('en-US');

/** What a call's result would have cost inline: the whole artifact, or what was carried. */
async function inlineTokens(call: ToolCall, carried: number): Promise<number> {
  return call.results instanceof SpooledArtifact ? call.results.estimateTokens() : carried;
}

/**
 * The tokens tool results carried over a run beside what inlining them would have cost: `turn`
 * prints a turn's calls and adds them up, `summary` says the totals.
 */
export class ResultTokens {
  carried = 0;
  inlined = 0;

  /** `results[i]` is what the next request carries for `calls[i]`. */
  async turn(calls: readonly ToolCall[], results: readonly unknown[]): Promise<void> {
    let carried = 0;
    let inlined = 0;
    for (const [index, call] of calls.entries()) {
      const tokens = approximateTokens(Buffer.byteLength(JSON.stringify(results[index])));
      carried += tokens;
      inlined += await inlineTokens(call, tokens);
      const status = call.error ? ` → error ${call.error.code}` : '';
      console.log(`  ${call.id} ${call.name} ${JSON.stringify(call.arguments)}${status}`);
    }
    this.carried += carried;
    this.inlined += inlined;
    console.log(
      `  the next request carries ~${number(carried)} tokens of tool results; inlined: ~${number(inlined)}`,
    );
  }

  summary(): string {
    return `tool results over the run: ~${number(this.carried)} tokens carried, ~${number(this.inlined)} if inlined`;
  }
}
