import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

// A consumer project in a temp directory, with the built package installed as a link (as
// `npm install ../spoolforge` would), type-checked the way a user's tsc would.
const consumer = mkdtempSync(join(tmpdir(), 'spoolforge-consumer-'));
mkdirSync(join(consumer, 'node_modules'));
symlinkSync(root, join(consumer, 'node_modules', 'spoolforge'), 'dir');
symlinkSync(join(root, 'node_modules', '@types'), join(consumer, 'node_modules', '@types'), 'dir');
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const source = `
import { spool, SpooledArtifact, ToolSession } from 'spoolforge';
import { grepScan } from 'spoolforge/engine';
import { toChatCompletionsMessages } from 'spoolforge/openai';
import { toAnthropicMessages } from 'spoolforge/anthropic';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { spoolforgeAgentTools } from 'spoolforge/openai-agents';
import { GoogleToolSession } from 'spoolforge/google';

export async function check(): Promise<number> {
  const artifact: SpooledArtifact = await spool('a\\nb\\n');
  const session = new ToolSession({ tools: [] });
  void [grepScan, toChatCompletionsMessages, toAnthropicMessages, spoolforgeToolSet, session];
  void [grepScan, toChatCompletionsMessages, toAnthropicMessages, spoolforgeToolSet, session];
  void [spoolforgeAgentTools, GoogleToolSession];
  return artifact.lineCount();
}
`;

/** The diagnostics of the consumer file under `options`, one line each. */
function typeCheck(fileName: string, options: ts.CompilerOptions): string[] {
  const path = join(consumer, fileName);
  writeFileSync(path, source);
  const program = ts.createProgram([path], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['lib.es2023.d.ts', 'lib.esnext.disposable.d.ts'],
    ...options,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the package types from a consumer project', () => {
  it.each([
    ['node10', 'consumer-node10.ts', ts.ModuleKind.CommonJS, ts.ModuleResolutionKind.Node10],
    ['nodenext', 'consumer-nodenext.mts', ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext],
    ['bundler', 'consumer-bundler.ts', ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler],
  ])(
    'resolve the package and its subpaths under moduleResolution %s',
    (_name, file, module, moduleResolution) => {
      expect(typeCheck(file, { module, moduleResolution })).toEqual([]);
    },
  );
});
