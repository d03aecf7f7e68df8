// A Confluence page as its REST API returns it (v2 `GET /pages/{id}?body-format=…`), about
// 300 KB: metadata, a storage-format body (an HTML string with a table, quotes, non-ASCII and
// newlines escaped in it) and the same content in the Atlassian Document Format, whose table
// rows are JSON, so a row is inserted by a JSON edit.

const cell = (text: string) => ({
  type: 'tableCell',
  attrs: {},
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** One ADF table row of three cells. */
export function adfRow(id: number, owner: string, state: string) {
  return { type: 'tableRow', content: [cell(`SVC-${id}`), cell(owner), cell(state)] };
}

const owners = ['Zoë Müller', 'Kenji 山田', 'Ana "AJ" Jones', 'Olu Adé'];
const states = ['green', 'amber 🟠', 'red', 'retired'];

/** The page as a value: `rows` rows in each body's table. */
export function confluencePage(rows = 620) {
  const htmlRows = Array.from(
    { length: rows },
    (_, id) =>
      `<tr><td><p>SVC-${id}</p></td><td><p>${owners[id % 4]}</p></td><td><p class="state" data-id="${id}">${states[id % 4]}</p></td></tr>`,
  ).join('\n');
  return {
    id: '884736012',
    status: 'current',
    title: 'Service catalogue — Q4 "review"',
    spaceId: '98305',
    parentId: '884735990',
    parentType: 'page',
    authorId: '5b10ac8d82e05b22cc7d4ef5',
    createdAt: '2026-11-02T09:14:03.512Z',
    version: {
      number: 7,
      message: 'rows for the EU region',
      minorEdit: false,
      authorId: '5b10ac8d82e05b22cc7d4ef5',
      createdAt: '2026-11-27T16:40:11.009Z',
    },
    labels: ['catalogue', 'services', 'q4'],
    body: {
      storage: {
        representation: 'storage',
        value: `<h1>Services</h1>\n<p>Owners: see "On call".</p>\n<table data-layout="wide"><tbody>\n<tr><th>Service</th><th>Owner</th><th>State</th></tr>\n${htmlRows}\n</tbody></table>\n<p>Last reviewed \\ by the SRE guild.</p>`,
      },
      atlas_doc_format: {
        representation: 'atlas_doc_format',
        value: {
          type: 'doc',
          version: 1,
          content: [
            { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Services' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Owners: see "On call".' }] },
            {
              type: 'table',
              attrs: { isNumberColumnEnabled: false, layout: 'wide' },
              content: Array.from({ length: rows }, (_, id) =>
                adfRow(id, owners[id % 4] as string, states[id % 4] as string),
              ),
            },
          ],
        },
      },
    },
    _links: {
      webui: '/spaces/CAT/pages/884736012/Service+catalogue',
      editui: '/pages/resumedraft.action?draftId=884736012',
      tinyui: '/x/DIC0Mw',
    },
  };
}

/** The page as the API sends it: one minified line. */
export const minifiedPage = (rows?: number) => JSON.stringify(confluencePage(rows));
