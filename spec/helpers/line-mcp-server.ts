// A minimal MCP server on stdio, written to a file of its own: a plain Node script that starts
// in milliseconds and whose process a spec can find by that file's path.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDirectory } from './temp-files.js';

/**
 * Writes the server and returns its path. It answers `initialize` itself; `onRequest`, the
 * body of a function of `message` and `answer(result)`, answers every other request (default:
 * an empty result).
 */
export async function writeLineServer(onRequest = 'answer({});'): Promise<string> {
  const script = join(await tempDirectory(), 'line-mcp-server.mjs');
  await writeFile(
    script,
    `const onRequest = (message, answer) => { ${onRequest} };
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\\n')) !== -1) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.id === undefined) continue;
    const answer = (result) =>
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
    if (message.method !== 'initialize') onRequest(message, answer);
    else answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'line', version: '1' } });
  }
});
`,
  );
  return script;
}
