// The round trip of artifact references through a real client: the model fetches a ~300 KB
// page, inserts a table row with `artifact_json` into a named new output, and passes that
// output to `update_page` by reference; the check compares what `update_page` received with
// the page modified here, and counts the tokens the model wrote for it.
import { readFile, rm } from 'node:fs/promises';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { adfRow, confluencePage, minifiedPage } from '../../spec/helpers/confluence-page.js';
import type { ClientName } from './client-commands.js';
import type { Scenario } from './run-scenario.js';
import { handleIdIn } from './scenarios.js';

const pageId = 884736012;
const rowPath = '$.body.atlas_doc_format.value.content[2].content';
const row = adfRow(620, 'Ngozi Okafor', 'green');
const name = 'page-with-row';

/** The page as `update_page` must receive it: the row appended to the ADF table. */
function expectedPage() {
  const page = confluencePage();
  const table: { content?: unknown } | undefined = page.body.atlas_doc_format.value.content[2];
  if (!Array.isArray(table?.content)) throw new Error('the page has no table');
  table.content.push(row);
  return page;
}

/**
 * The scenario for `client`: `proxy` is `spoolforge mcp` over the page server, which writes
 * what `update_page` receives to `received`.
 */
export function referenceRoundTrip(options: {
  client: ClientName;
  proxy: Scenario['server'];
  received: string;
}): Scenario {
  return {
    id: `${options.client}-refs`,
    client: options.client,
    label: `${options.client} via spoolforge mcp, reference round trip of a 300 KB page`,
    server: options.proxy,
    steps: [
      { tool: 'get_page', args: () => ({ page_id: pageId }) },
      {
        tool: 'artifact_json',
        args: (previous) => {
          const callId = previous && handleIdIn(previous.text);
          if (callId === undefined) return undefined;
          return { callId, op: 'insert', path: rowPath, value: JSON.stringify(row), name };
        },
      },
      {
        tool: 'update_page',
        args: (previous) =>
          previous?.text.includes(`"${name}"`)
            ? { page_id: pageId, body: { $artifact: name, json: '$' } }
            : undefined,
      },
    ],
    timeoutSeconds: 180,
    check: async (calls) => {
      const written = calls
        .slice(1, 3)
        .map((call) => countTokens(JSON.stringify(call?.arguments ?? {})));
      const tokens = `model wrote ${written.join(' + ')} o200k tokens of arguments (steps 2, 3) against ${countTokens(minifiedPage()).toLocaleString('en-US')} for the page`;
      const received = await readFile(options.received, 'utf8').catch(() => undefined);
      await rm(options.received, { force: true });
      if (received === undefined) return `update_page received nothing; ${tokens}`;
      const same = received === JSON.stringify(expectedPage());
      return `update_page body ${same ? 'identical to' : 'DIFFERS from'} the expected page (${Buffer.byteLength(received).toLocaleString('en-US')} bytes); ${tokens}`;
    },
  };
}
