import { rawRequest } from '../../helpers/http-servers.js';

/**
 * POSTs `message` as an MCP client would (JSON, accepting JSON and SSE), over node:http, not
 * fetch: fetch will not send a Host header of our choosing. Resolves once the body has ended.
 */
export function post(url: string, message: object, headers: Record<string, string> = {}) {
  const { origin, pathname } = new URL(url);
  return rawRequest(origin, pathname, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

/** An `initialize` request as a client sends it first. */
export const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
};
