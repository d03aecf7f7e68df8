import { defineTool } from 'spoolforge';
import { expect } from 'vitest';
import { z } from 'zod';

/**
 * Outputs over the inline threshold (2 KiB) with only a few lines: a minified API response, a
 * one-line HTML page, a short JSONL batch. Each kind comes from its own tool, which declares
 * its media type the way a real tool would.
 */
export const outputKinds = ['text', 'json', 'jsonl', 'markdown'] as const;
export type OutputKind = (typeof outputKinds)[number];
export const lineCounts = [1, 2, 3, 4] as const;

const mediaTypes: Record<OutputKind, string> = {
  text: 'text/plain',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  markdown: 'text/markdown',
};

/** A record of about 2.2 KB, so that one line alone passes the threshold. */
const record = (index: number) =>
  JSON.stringify({ id: index, status: index % 2 ? 'open' : 'closed', note: 'n'.repeat(2_200) });

/** The lines of an output of `kind` with exactly `count` lines (no line is empty). */
export function outputLines(kind: OutputKind, count: number): string[] {
  const indexes = Array.from({ length: count }, (_, index) => index);
  switch (kind) {
    case 'text':
      return indexes.map((index) => `line ${index + 1}: ${'lorem ipsum '.repeat(190)}`);
    case 'json':
      // One array, one record a line: `[r0,` … `r3]`; a single line is minified JSON.
      return indexes.map(
        (index) => `${index === 0 ? '[' : ''}${record(index)}${index === count - 1 ? ']' : ','}`,
      );
    case 'jsonl':
      return indexes.map(record);
    case 'markdown':
      return indexes.map((index) =>
        index === 0
          ? `# Release notes ${'and more '.repeat(260)}`
          : `- change ${index}: ${'details '.repeat(300)}`,
      );
  }
}

/** The output's text; JSONL ends with a newline, the others do not (both are common). */
export const outputText = (kind: OutputKind, count: number) =>
  outputLines(kind, count).join('\n') + (kind === 'jsonl' ? '\n' : '');

/** One tool per kind: `produce_<kind>` returns `lines` lines of it. */
export const fewLineTools = outputKinds.map((kind) =>
  defineTool({
    name: `produce_${kind}`,
    description: `Returns a ${kind} output with the given number of lines.`,
    inputSchema: z.object({ lines: z.number().int().min(0) }),
    mediaType: mediaTypes[kind],
    handler: ({ lines }) => (lines === 0 ? '' : outputText(kind, lines)),
  }),
);

/** Every (kind, lines) pair, as the calls a model makes for them. */
export const fewLineCalls = outputKinds.flatMap((kind) =>
  lineCounts.map((lines) => ({ kind, lines, name: `produce_${kind}`, arguments: { lines } })),
);

/**
 * Asserts `handle` is the handle of a `lines`-line `kind` output: its header, every line in
 * the preview (numbered from 1, cut to one width), no error.
 */
export function expectFewLineHandle(handle: string, kind: OutputKind, lines: number) {
  expect(handle).not.toMatch(/Error|E_[A-Z_]+/);
  expect(handle).toMatch(
    new RegExp(`^Output of produce_${kind} \\(\\S+\\) was spooled, not inlined: ${kind}, `),
  );
  expect(handle).toContain(`, ${lines} line${lines === 1 ? '' : 's'}, `);
  const preview = handle.split('\n').slice(2, -2);
  expect(handle.split('\n')[1]).toBe('Preview (first and last lines):');
  // Every line, cut to one width: 100 characters, or narrower when that passes 300 tokens.
  const width = (preview[0]?.length ?? 0) - '1:…'.length;
  expect(width).toBeGreaterThanOrEqual(40);
  expect(preview).toEqual(
    outputLines(kind, lines).map((line, index) => `${index + 1}:${line.slice(0, width)}…`),
  );
  expect(handle.split('\n').at(-2)).toMatch(/^Query it with artifact_read, .*\(callId "\S+"\)/);
  expect(handle.split('\n').at(-1)).toMatch(
    /^Pass it to a tool as the argument value \{"\$artifact":"\S+"\}/,
  );
}

/** Asserts `text` is `artifact_read`'s answer of the whole `lines`-line `kind` output. */
export function expectWholeOutput(text: string, kind: OutputKind, lines: number) {
  const expected = outputLines(kind, lines).map(
    (line, index) =>
      `${index + 1}:${line.length > 2_000 ? `${line.slice(0, 2_000)}… [line cut: 2000 of ${line.length} chars]` : line}`,
  );
  expect(text).toBe(`lines 1–${lines} of ${lines}:\n${expected.join('\n')}\n`);
}
