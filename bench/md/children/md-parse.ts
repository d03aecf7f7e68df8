/**
 * Runs one Markdown operation in a process of its own, so its peak RSS is that operation's.
 * `node md-parse.mjs DIST_INDEX FILE OPERATION`: `markdown-it` reads the file and parses it whole
 * with markdown-it's default preset; `headings`, `sections` and `codeBlocks` open it as a
 * `SpooledMarkdownArtifact` and run that query. Prints one JSON {@link MarkdownReport}; the time
 * excludes loading the modules.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the child prints. */
export interface MarkdownReport {
  seconds: number;
  headingCount: number;
  count: number;
  peakRssBytes: number;
}

const [distIndexPath, path, operation] = process.argv.slice(2);
if (!distIndexPath || !path || !operation) {
  process.stderr.write('usage: md-parse DIST_INDEX FILE OPERATION\n');
  process.exit(2);
}

let report: Omit<MarkdownReport, 'peakRssBytes'>;
if (operation === 'markdown-it') {
  // Resolved through the node_modules link beside the script (see main.ts).
  const { default: markdownIt } = await import('markdown-it');
  const md = markdownIt();
  const start = performance.now();
  const tokens = md.parse(readFileSync(path, 'utf8'), {});
  const headingCount = tokens.filter((token) => token.type === 'heading_open').length;
  const codeBlocks = tokens.filter(
    (token) => token.type === 'fence' || token.type === 'code_block',
  );
  report = { seconds: (performance.now() - start) / 1000, headingCount, count: codeBlocks.length };
} else {
  const library = (await import(
    pathToFileURL(distIndexPath).href
  )) as typeof import('../../../src/index.js');
  const artifact = library.SpooledMarkdownArtifact.fromFile(path);
  const start = performance.now();
  const found =
    operation === 'headings'
      ? await artifact.headings()
      : operation === 'sections'
        ? await artifact.sections()
        : await artifact.codeBlocks();
  const seconds = (performance.now() - start) / 1000;
  const headingCount = (await artifact.headings()).length;
  await artifact.close();
  report = { seconds, headingCount, count: found.length };
}
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ ...report, peakRssBytes })}\n`);
