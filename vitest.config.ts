import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { compileWat } from './scripts/compile-wat.mjs';

// Specs run against the built package (`npm run build` first), the way users import it,
// so the regex worker and the CLI are the real compiled files.
export default defineConfig({
  // Specs that import src/ reach its `.wat` kernels, compiled as the build compiles them.
  plugins: [{ name: 'wat', load: (id) => (id.endsWith('.wat') ? compileWat(id) : undefined) }],
  resolve: {
    alias: [
      {
        find: /^spoolforge$/,
        replacement: fileURLToPath(new URL('./dist/index.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/engine$/,
        replacement: fileURLToPath(new URL('./dist/engine.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/(openai|anthropic|ai-sdk|openai-agents|google)$/,
        replacement: fileURLToPath(new URL('./dist/providers/$1/index.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/postgres$/,
        replacement: fileURLToPath(new URL('./dist/context/postgres/index.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/mcp$/,
        replacement: fileURLToPath(new URL('./dist/mcp/index.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/s3$/,
        replacement: fileURLToPath(new URL('./dist/store/s3/index.js', import.meta.url)),
      },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI persists line indexes of large files; specs keep theirs out of the user's cache.
    env: { SPOOLFORGE_CACHE_DIR: join(tmpdir(), `spoolforge-spec-cache-${process.pid}`) },
    projects: [
      { extends: true, test: { name: 'spoolforge', include: ['spec/**/*.spec.ts'] } },
      // The AI SDK adapter supports two majors: its specs run again with `ai` and
      // `@ai-sdk/openai` resolved to the previous ones (installed under alias names).
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^ai$/, replacement: 'ai-v6' },
            { find: /^@ai-sdk\/openai$/, replacement: 'ai-sdk-openai-v3' },
          ],
        },
        test: {
          name: 'ai@6',
          include: ['spec/providers/ai-sdk*.spec.ts'],
          env: { SPOOLFORGE_SPEC_AI_SDK_MAJOR: '6' },
        },
      },
      // The OpenAI adapter too: its specs run again with `openai` resolved to the next major.
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^openai$/, replacement: 'openai-v7' },
            { find: /^openai\/(.*)$/, replacement: 'openai-v7/$1' },
          ],
        },
        test: {
          name: 'openai@7',
          include: ['spec/providers/openai.spec.ts', 'spec/providers/openai-converters.spec.ts'],
        },
      },
    ],
  },
});
