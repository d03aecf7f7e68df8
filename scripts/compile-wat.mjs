// Compiles a WebAssembly text module (`src/**/*.wat`) with wabt's wat2wasm, SIMD enabled, into
// the module `import kernels from './x.wat'` stands for: its bytes as a base64 default export.
// Used by the build (scripts/build.mjs) and by specs that import src/ (vitest.config.ts).
import { readFileSync } from 'node:fs';
import loadWabt from 'wabt';

const wabt = await loadWabt();

/** The JavaScript module of the `.wat` file at `path`; throws where wabt rejects it. */
export function compileWat(path) {
  const module = wabt.parseWat(path, readFileSync(path, 'utf8'), { simd: true });
  try {
    module.validate();
    const base64 = Buffer.from(module.toBinary({}).buffer).toString('base64');
    return `export default ${JSON.stringify(base64)};\n`;
  } finally {
    module.destroy();
  }
}
