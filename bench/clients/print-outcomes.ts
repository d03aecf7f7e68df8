// The table the harness prints: per scenario and tool result, what the client sent its model.
import type { ScenarioOutcome } from './run-scenario.js';

/** A JSON value's shape: strings as their length, at most two items of an array, cut at `max`. */
export function shapeOf(value: unknown, max = 140): string {
  const shape = (node: unknown): unknown => {
    if (typeof node === 'string') return `<${node.length} chars>`;
    if (Array.isArray(node))
      return [...node.slice(0, 2).map(shape), ...(node.length > 2 ? ['…'] : [])];
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, shape(item)]));
    }
    return node;
  };
  const text = JSON.stringify(shape(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const needles = ['first', 'middle', 'last'] as const;

/** Prints one row per tool result the model saw (one per scenario that saw none). */
export function printOutcomes(outcomes: ScenarioOutcome[]): void {
  const rows: string[][] = [
    [
      'scenario',
      'exit',
      's',
      'step',
      'bytes to model',
      'handle',
      'link',
      'structured',
      'needles',
      'shape / last reply',
    ],
  ];
  for (const outcome of outcomes) {
    const exit = outcome.timedOut ? 'timeout' : String(outcome.exitCode);
    const seconds = outcome.seconds.toFixed(0);
    const reply = outcome.finalReply
      ? 'text' in outcome.finalReply
        ? outcome.finalReply.text
        : `call ${outcome.finalReply.call.name}`
      : 'no request with tools';
    if (outcome.results.length === 0) {
      rows.push([
        outcome.scenario.id,
        exit,
        seconds,
        '-',
        '-',
        '-',
        '-',
        '-',
        '-',
        reply.slice(0, 100),
      ]);
      continue;
    }
    for (const result of outcome.results) {
      const raw = JSON.stringify(result.raw);
      const seen = needles.filter((needle) => result.text.includes(`NEEDLE-${needle}`));
      rows.push([
        outcome.scenario.id,
        exit,
        seconds,
        `${result.step + 1} ${result.tool}`,
        result.bytes.toLocaleString('en-US'),
        /was spooled, not inlined/.test(result.text) ? 'yes' : 'no',
        raw.includes('resource_link') || raw.includes('spoolforge://artifacts/') ? 'yes' : 'no',
        raw.includes('structuredContent') ? 'yes' : 'no',
        seen.join(',') || '-',
        shapeOf(result.raw),
      ]);
    }
  }
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join(' | ')
        .trimEnd(),
    );
  }
  for (const outcome of outcomes) {
    if (outcome.check !== undefined) console.log(`${outcome.scenario.id}: ${outcome.check}`);
  }
}
