import { join } from 'node:path';
import {
  type ArtifactHandlerOptions,
  ArtifactStore,
  createArtifactHandler,
  createLinkSigner,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

const key = 'a-link-signing-key-of-32-bytes!!';
const oldKey = 'the-key-used-before-the-rotation';
const log = Array.from({ length: 40 }, (_, index) =>
  index % 10 === 2 ? `${index + 1} ERROR disk full` : `${index + 1} ok`,
).join('\n');
const body = `${log}\n`;
const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A store with two artifacts behind a handler whose links are signed by a clock the test moves. */
async function serve(options: ArtifactHandlerOptions = {}) {
  const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
  const first = await store.put(body, { name: 'build log 7' });
  const second = await store.put('another artifact\n', { name: 'other' });
  // On a whole second: an expiry is rounded up to one.
  const clock = { now: Math.floor(Date.now() / 1000) * 1000 };
  const signer = createLinkSigner({ key, now: () => clock.now });
  const origin = await listen(
    createArtifactHandler(store, { signedLinks: { signer }, ...options }),
  );
  return { store, first, second, clock, signer, origin, base: `${origin}/artifacts` };
}

/** The `href`s of a page, as a browser reads them (entities decoded). */
function hrefs(page: string): string[] {
  return [...page.matchAll(/href="([^"]*)"/g)].map((match) =>
    (match[1] ?? '').replaceAll('&amp;', '&'),
  );
}

/** The URL a browser submits the viewer's GET form to, with `fields` filled in. */
function formSubmission(origin: string, page: string, fields: Record<string, string>): string {
  const action = /<form method="get" action="([^"]*)">/.exec(page)?.[1] ?? '';
  const url = new URL(action.replaceAll('&amp;', '&'), origin);
  url.search = ''; // a GET form replaces the action's query with its fields
  for (const [, name = '', value = ''] of page.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
  )) {
    url.searchParams.append(name, value);
  }
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  return url.href;
}

describe('createArtifactHandler: signed links', () => {
  it('opens an artifact by a link signed over its path: the viewer, a grep, the body with Range', async () => {
    const { first, signer, base } = await serve();
    const artifact = `${base}/${first.id}`;
    const view = signer.sign(`${artifact}/view`, { scope: artifact });
    const page = await fetch(view);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('1 ok');
    const grep = new URL(view);
    grep.searchParams.set('op', 'grep');
    grep.searchParams.set('pattern', 'ERROR');
    const grepPage = await (await fetch(grep)).text();
    expect(grepPage).toContain('3 ERROR disk full');
    expect(grepPage).toContain('33 ERROR disk full');
    const raw = await fetch(signer.sign(artifact), { headers: { Range: 'bytes=0-9' } });
    expect(raw.status).toBe(206);
    expect(await raw.text()).toBe(body.slice(0, 10));
    // A link signed over the viewer path itself is for that path alone.
    const viewOnly = signer.sign(`${artifact}/view`);
    expect((await fetch(viewOnly)).status).toBe(403);
  });

  it('answers 403 to an unsigned, tampered or expired link, the same whether the artifact exists', async () => {
    const { first, second, signer, clock, base } = await serve();
    const link = new URL(signer.sign(`${base}/${first.id}`, { expiresIn: 60_000 }));
    const variants = [
      `${base}/${first.id}`,
      link.href.replace(first.id, second.id),
      link.href.replace(first.id, 'AAAAAAAAAAAAAAAAAAAAAA'),
      link.href.replace(/expires=(\d+)/, (_, seconds) => `expires=${Number(seconds) + 1}`),
      link.href.replace(
        /signature=./,
        (match) => `${match.slice(0, -1)}${match.endsWith('A') ? 'B' : 'A'}`,
      ),
      createLinkSigner({ key: oldKey }).sign(`${base}/${first.id}`),
    ];
    const answers = await Promise.all(
      variants.map(async (url) => {
        const response = await fetch(url);
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          body: await response.text(),
        };
      }),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.status).toBe(403);
    expect(JSON.parse(answers[0]?.body ?? '')).toEqual({
      error: {
        status: 403,
        message:
          'Forbidden: the link is unsigned, altered or expired, or the request is not authorised',
      },
    });
    expect((await fetch(link)).status).toBe(200);
    clock.now += 60_000;
    expect((await fetch(link)).status).toBe(403);
  });

  it('shows browsers a 403 page that links nowhere, and still answers HEAD and other methods with 403', async () => {
    const { first, base } = await serve();
    const page = await fetch(`${base}/${first.id}/view`, { headers: html });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('vary')).toBe('Accept');
    const text = await page.text();
    expect(text).toContain('Forbidden: the link is unsigned, altered or expired');
    expect(hrefs(text)).toEqual([]);
    expect(text).not.toContain(first.id);
    const head = await fetch(`${base}/${first.id}`, { method: 'HEAD' });
    expect(head.status).toBe(403);
    expect((await fetch(`${base}/${first.id}`, { method: 'POST' })).status).toBe(403);
  });

  it('keeps a signature to its artifact: not another one, not the index; the index needs its own', async () => {
    const { first, second, signer, base } = await serve();
    const overFirst = new URL(signer.sign(`${base}/${first.id}`));
    const onSecond = `${base}/${second.id}${overFirst.search}`;
    expect((await fetch(onSecond)).status).toBe(403);
    expect((await fetch(`${base}/${second.id}/view${overFirst.search}`)).status).toBe(403);
    expect((await fetch(`${base}${overFirst.search}`)).status).toBe(403);
    expect((await fetch(`${base}/${overFirst.search}`)).status).toBe(403);
    const index = await fetch(signer.sign(`${base}/`));
    expect(index.status).toBe(200);
    expect(((await index.json()) as { artifacts: unknown[] }).artifacts).toHaveLength(2);
    // An index signature opens no artifact by itself.
    const overIndex = new URL(signer.sign(base));
    expect((await fetch(`${base}/${first.id}${overIndex.search}`)).status).toBe(403);
    // A signature over a name admits what that name finds.
    const byName = await fetch(signer.sign(`${base}/${encodeURIComponent('build log 7')}`));
    expect(await byName.text()).toBe(body);
  });

  it('renders an artifact page whose links work when followed, and no link to the index', async () => {
    const { first, signer, clock, origin, base } = await serve();
    const artifact = `${base}/${first.id}`;
    const view = signer.sign(`${artifact}/view`, { scope: artifact, expiresIn: 120_000 });
    const page = await (await fetch(view, { headers: html })).text();
    const links = hrefs(page);
    expect(links).toHaveLength(1);
    expect(links.some((link) => new URL(link, origin).pathname === '/artifacts/')).toBe(false);
    expect(page).not.toContain('all artifacts');
    const raw = await fetch(new URL(links[0] ?? '', origin), { headers: { Range: 'bytes=-6' } });
    expect(raw.status).toBe(206);
    expect(await raw.text()).toBe(body.slice(-6));
    // The form carries the signature: a grep and a line range submitted from it work.
    const grep = await fetch(
      formSubmission(origin, page, { op: 'grep', pattern: 'ERROR', context: '1' }),
    );
    expect(grep.status).toBe(200);
    const grepPage = await grep.text();
    expect(grepPage).toContain('13 ERROR disk full');
    const range = await fetch(
      formSubmission(origin, grepPage, { op: 'read', start: '20', end: '22' }),
    );
    const rangePage = await range.text();
    expect(range.status).toBe(200);
    expect(rangePage).toContain('21 ok');
    expect(rangePage).not.toContain('19 ok');
    // A bad query's page keeps the links, and still none to the index.
    const bad = await fetch(formSubmission(origin, page, { op: 'grep', pattern: '(' }));
    expect(bad.status).toBe(400);
    expect(hrefs(await bad.text())).toHaveLength(1);
    // The links expire with the link the page was opened with, never later.
    const expires = new URL(view).searchParams.get('expires');
    expect(new URL(links[0] ?? '', origin).searchParams.get('expires')).toBe(expires);
    clock.now += 120_000;
    expect((await fetch(new URL(links[0] ?? '', origin))).status).toBe(403);
  });

  it('renders a signed index page whose links open each artifact until the index link expires', async () => {
    const { first, second, signer, clock, origin, base } = await serve();
    const index = signer.sign(`${base}/`, { expiresIn: 30_000 });
    const page = await (await fetch(index, { headers: html })).text();
    const links = hrefs(page).map((link) => new URL(link, origin));
    expect(links.map((link) => link.pathname).sort()).toEqual(
      [
        `/artifacts/${first.id}`,
        `/artifacts/${first.id}/view`,
        `/artifacts/${second.id}`,
        `/artifacts/${second.id}/view`,
      ].sort(),
    );
    for (const link of links) {
      const response = await fetch(link, { headers: html });
      expect(response.status).toBe(200);
      const text = await response.text();
      // Its signature is over that artifact alone: its page cannot link back to the index.
      if (link.pathname.endsWith('/view')) expect(text).not.toContain('all artifacts');
    }
    clock.now += 30_000;
    for (const link of links) expect((await fetch(link)).status).toBe(403);
  });

  it('verifies links signed with an old key after a rotation, and signs with the new one', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const record = await store.put(body);
    const origin = await listen(
      createArtifactHandler(store, { signedLinks: { keys: [key, oldKey] } }),
    );
    const before = createLinkSigner({ key: oldKey }).sign(`${origin}/artifacts/${record.id}`);
    expect((await fetch(before)).status).toBe(200);
    const after = createLinkSigner({ key }).sign(`${origin}/artifacts/${record.id}`);
    expect((await fetch(after)).status).toBe(200);
    const stranger = createLinkSigner({ key: 'x'.repeat(32) }).sign(
      `${origin}/artifacts/${record.id}`,
    );
    expect((await fetch(stranger)).status).toBe(403);
    expect(() => createArtifactHandler(store, { signedLinks: { key: 'short' } })).toThrow(
      /at least 32/,
    );
  });

  it('scopes signatures the same when the handler is mounted at the root', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const record = await store.put(body);
    const signer = createLinkSigner({ key });
    const origin = await listen(
      createArtifactHandler(store, { basePath: '/', signedLinks: { signer } }),
    );
    expect((await fetch(`${origin}/`)).status).toBe(403);
    const index = await fetch(signer.sign(`${origin}/`), { headers: html });
    expect(index.status).toBe(200);
    const view = hrefs(await index.text()).find((href) => href.startsWith(`/${record.id}/view?`));
    const page = await fetch(new URL(view ?? '', origin));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('1 ok');
    const overArtifact = new URL(signer.sign(`${origin}/${record.id}`));
    expect((await fetch(`${origin}/${overArtifact.search}`)).status).toBe(403);
    expect((await fetch(overArtifact)).status).toBe(200);
  });

  it('leaves paths outside its base path alone', async () => {
    const { origin } = await serve();
    const outside = await fetch(`${origin}/health`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ error: { status: 404, message: 'Not found' } });
  });
});
