import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Specs run against the built package (`npm run build` first), the way users import it,
// so the regex worker and the CLI are the real compiled files.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^spoolforge$/,
        replacement: fileURLToPath(new URL('./dist/index.js', import.meta.url)),
      },
      {
        find: /^spoolforge\/(openai|anthropic|ai-sdk)$/,
        replacement: fileURLToPath(new URL('./dist/providers/$1/index.js', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['spec/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
