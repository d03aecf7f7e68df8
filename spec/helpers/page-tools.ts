import { defineTool } from 'spoolforge';
import { z } from 'zod';

/** A wiki page of 8,000 table rows (309,829 bytes as JSON): far past the inline threshold. */
export const htmlPage = {
  id: 4812,
  version: 17,
  body: `<table>${Array.from({ length: 8_000 }, (_, row) => `<tr><td>${row}</td><td>row ${row}</td></tr>`).join('')}</table>`,
};

/**
 * `fetch_page`, which answers {@link htmlPage} as JSON, and `update_page`, which keeps each
 * input it is called with in `received`: a model passes the page's body and version on by
 * reference.
 */
export function pageTools() {
  const received: { body: string; version: number }[] = [];
  const fetchPage = defineTool({
    name: 'fetch_page',
    description: 'Fetches a page.',
    inputSchema: z.object({}),
    kind: 'json',
    handler: () => JSON.stringify(htmlPage),
  });
  const updatePage = defineTool({
    name: 'update_page',
    description: 'Updates a page.',
    inputSchema: z.object({ body: z.string(), version: z.number().int() }),
    handler: (input) => {
      received.push(input);
      return 'updated';
    },
  });
  return { list: [fetchPage, updatePage], received };
}
