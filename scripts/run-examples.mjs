// Runs every example the way a user would (`npx tsx examples/NAME.ts`), the demo at a small
// size; any failure fails `npm test`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const examples = readdirSync(new URL('../examples/', import.meta.url)).filter((name) =>
  name.endsWith('.ts'),
);
let failed = 0;
for (const name of examples) {
  const args = name === 'demo.ts' ? ['--size', '8M'] : [];
  const result = spawnSync(process.execPath, ['--import', 'tsx', `examples/${name}`, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const ok = result.status === 0;
  if (!ok) failed++;
  console.log(`${ok ? 'ok' : 'FAILED'}  examples/${name}${ok ? '' : `\n${result.stdout}`}`);
}
console.log(`examples: ${examples.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
