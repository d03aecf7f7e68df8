import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from './mcp-clients.js';

/** Milliseconds of one tool call, at a few percentiles. */
export interface LatencySummary {
  p50: number;
  p95: number;
  calls: number;
}

/**
 * The value below which `fraction` of the sorted values fall (nearest rank).
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 0.5); // 2
 * ```
 */
export function percentile(sorted: readonly number[], fraction: number): number {
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

function summarise(milliseconds: number[]): LatencySummary {
  const sorted = [...milliseconds].sort((first, second) => first - second);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), calls: sorted.length };
}

/**
 * Times `calls` sequential calls of `tool` on each client after `warmUp` untimed ones,
 * alternating between the clients call by call, so a change in the machine's load weighs on
 * both alike.
 *
 * @example
 * ```ts
 * const { direct, proxied } = await compareLatency({ direct, proxied, tool: 'small', calls: 500 });
 * ```
 */
export async function compareLatency(options: {
  direct: Client;
  proxied: Client;
  tool: string;
  calls: number;
  warmUp: number;
}): Promise<{ direct: LatencySummary; proxied: LatencySummary }> {
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let call = 0; call < options.warmUp + options.calls; call++) {
    for (const side of ['direct', 'proxied'] as const) {
      const start = performance.now();
      await callTool(options[side], options.tool);
      if (call >= options.warmUp) times[side].push(performance.now() - start);
    }
  }
  return { direct: summarise(times.direct), proxied: summarise(times.proxied) };
}
