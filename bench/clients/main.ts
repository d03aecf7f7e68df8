// npm run bench:clients [-- ID_OR_CLIENT…] [--update]
//
// Runs the real MCP clients (Claude Code, Codex CLI, Gemini CLI) headless against a scripted
// model on 127.0.0.1, each with `spoolforge mcp -- server-filesystem` (and, for the facts the
// docs state about each client, with the server alone), one client at a time, and prints what
// each client sent its model as each tool result.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logText } from '../mcp/log-text.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { installClients } from './install-clients.js';
import { printOutcomes } from './print-outcomes.js';
import { runScenario, type ScenarioOutcome } from './run-scenario.js';
import { logSizes, scenariosFor } from './scenarios.js';

const argv = process.argv.slice(2);
const filters = argv.filter((arg) => !arg.startsWith('--'));
ensureBuilt(repositoryRoot);
const clients = installClients({ update: argv.includes('--update') });
console.log(
  `Claude Code ${clients.claude.version}, Codex CLI ${clients.codex.version}, ` +
    `Gemini CLI ${clients.gemini.version}, server-filesystem ${clients.filesystem.version}, ` +
    `Node ${process.version}`,
);

const work = await mkdtemp(join(tmpdir(), 'spoolforge-clients-'));
try {
  const files = join(work, 'files');
  await mkdir(files);
  // Needles at the start, the middle and the end: which survive shows how a client cuts.
  for (const [name, bytes] of Object.entries(logSizes)) {
    const half = logText(Math.round((bytes - 40) / 2));
    await writeFile(
      join(files, `${name}.log`),
      `NEEDLE-first\n${half}NEEDLE-middle\n${half}NEEDLE-last\nINFO done\n`,
    );
  }
  const scenarios = scenariosFor({ clients, files, store: join(work, 'store') }).filter(
    (scenario) =>
      filters.length === 0 ||
      filters.some((filter) => scenario.id === filter || scenario.client === filter),
  );
  const outcomes: ScenarioOutcome[] = [];
  for (const scenario of scenarios) {
    console.error(`running ${scenario.id}…`);
    const outDirectory = join(resultsDirectory, 'clients', scenario.id);
    await rm(outDirectory, { recursive: true, force: true });
    await mkdir(outDirectory, { recursive: true });
    outcomes.push(await runScenario({ scenario, clients, workDirectory: files, outDirectory }));
  }
  printOutcomes(outcomes);
  await writeFile(
    join(resultsDirectory, 'clients', 'outcomes.json'),
    JSON.stringify(
      {
        versions: {
          claude: clients.claude.version,
          codex: clients.codex.version,
          gemini: clients.gemini.version,
          filesystem: clients.filesystem.version,
          node: process.version,
        },
        outcomes: outcomes.map(({ stdout: _o, stderr: _e, results, ...rest }) => ({
          ...rest,
          results: results.map(({ raw: _r, text, ...result }) => ({
            ...result,
            head: text.slice(0, 500),
          })),
        })),
      },
      null,
      2,
    ),
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
