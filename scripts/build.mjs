// Builds dist/: tsc writes the declarations (dist/**/*.d.ts), esbuild the JavaScript.
//
// The library is bundled: its entries (the package, its engine and provider subpaths) plus
// shared chunks, instead of some 130 modules that Node would resolve and load one by one on every
// `import('spoolforge')`. Packages stay external (zod, the tokenizers, micromark… are the
// user's installed copies) and every dynamic import stays a dynamic import, so what is loaded
// on first use still is. The CLI is bundled on its own, one chunk per command, loaded only when
// run. Workers are entries too, found through src/shared/worker-url.ts: that file is an entry
// as well, so its code always lands in a chunk one directory below dist/ (dist/chunks/ or
// dist/cli/), from where one relative URL reaches every worker.
//
// WebAssembly kernels are written as text (`src/**/*.wat`): each is compiled here with wabt's
// wat2wasm (the `wabt` devDependency) and inlined into the bundles as base64. A module of under
// 1 KB is cheaper inline than as a file beside chunks in two directories and worker threads:
// it compiles synchronously on first use, with no read and no path to resolve.
//
// The token counters' vocabularies are generated too (scripts/build-vocabularies.mjs): binary
// files in dist/tokens/, read on first use, from gpt-tokenizer's rank tables.
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeVocabularies } from './build-vocabularies.mjs';
import { compileWat } from './compile-wat.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
// Chunk names carry hashes, and files of an earlier layout must not be packed: start empty.
rmSync(dist, { recursive: true, force: true });

const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** Each imported `.wat` file, compiled (see scripts/compile-wat.mjs). */
const wat = {
  name: 'wat',
  setup(plugin) {
    plugin.onLoad({ filter: /\.wat$/ }, ({ path }) => ({
      contents: compileWat(path),
      loader: 'js',
    }));
  },
};

/** What both bundles share: ES modules for Node 20, packages left to the user's install. */
const common = {
  plugins: [wat],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // No source maps: they would point at src/, which is not shipped, and inlining the sources
  // would double the package for code that is already plain, unminified ES2022.
  sourcemap: false,
  logLevel: 'warning',
};
const library = [
  'index',
  'engine',
  'providers/openai/index',
  'providers/anthropic/index',
  'providers/ai-sdk/index',
  'providers/openai-agents/index',
  'providers/google/index',
  'mcp/index',
  'context/postgres/index',
  'store/s3/index',
  'spool/line-index-worker',
  'grep/grep-scan-worker',
  'grep/regex-worker',
  'shared/worker-url',
];
await build({
  ...common,
  entryPoints: Object.fromEntries(library.map((name) => [name, join(root, 'src', `${name}.ts`)])),
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
});
const cli = join(dist, 'cli');
await build({ ...common, entryPoints: [join(root, 'src', 'cli', 'main.ts')], outdir: cli });
chmodSync(join(cli, 'main.js'), 0o755);
await writeVocabularies(join(dist, 'tokens'));
