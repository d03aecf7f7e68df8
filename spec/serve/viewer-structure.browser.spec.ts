import type { Page } from 'playwright-core';
import { createArtifactHandler, createLinkSigner } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { hasChromium, sharedChromium, viewport } from '../helpers/chromium.js';
import { listen } from '../helpers/http-servers.js';
import { openStore } from '../store/store-helpers.js';

const browser = sharedChromium();

/** Chooses an operation, fills fields by label, runs it and waits for the page it loads. */
async function run(page: Page, operation: string, fields: Record<string, string> = {}) {
  await page.getByLabel('Operation').selectOption(operation);
  for (const [label, value] of Object.entries(fields)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForURL(new RegExp(`op=${operation}`));
  return (await page.locator('pre.result, p.problem').textContent()) ?? '';
}

const optionsOf = (page: Page) =>
  page
    .locator('select[name=op] option')
    .evaluateAll((options) =>
      options.map((option) => (option as unknown as { value: string }).value),
    );

describe.skipIf(!hasChromium)('JSON and Markdown in the viewer, in Chromium', () => {
  it('a minified JSON document: its shape, a JSONPath filter, get and a page of entries', async () => {
    const store = await openStore();
    const items = Array.from({ length: 300 }, (_, index) => ({
      id: index + 1,
      status: index % 50 === 7 ? 503 : 200,
      note: index === 57 ? '</pre><script>alert(1)</script>' : `ok ${index}`,
    }));
    // One line of 17 KB: read and grep would show one cut line.
    const record = await store.put(JSON.stringify({ items, meta: { region: 'eu' } }), {
      name: 'requests.json',
      mediaType: 'application/json',
    });
    const origin = await listen(createArtifactHandler(store));
    const page = await browser().newPage({ viewport });
    await page.goto(`${origin}/artifacts/${record.id}/view`);
    expect(await optionsOf(page)).toEqual(['read', 'grep', 'shape', 'get', 'filter', 'slice']);

    const shape = await run(page, 'shape');
    expect(shape).toContain("$['items'][*].status: number 300");
    expect(shape).toContain("$['meta'].region: string 1");

    const filtered = await run(page, 'filter', { Path: '$.items[?(@.status >= 500)]' });
    expect(filtered.split('\n').filter((line) => line.startsWith("$['items']"))).toHaveLength(6);
    expect(filtered).toContain(
      `$['items'][57] = {"id":58,"status":503,"note":"</pre><script>alert(1)</script>"}`,
    );
    expect(await page.locator('script').count()).toBe(0); // shown as text, never markup
    expect(await page.getByLabel('Path', { exact: true }).inputValue()).toBe(
      '$.items[?(@.status >= 500)]',
    );

    const ids = await run(page, 'get', { Path: '$.items[*].id' });
    expect(ids).toContain("$['items'][299]['id'] = 300");

    const slice = await run(page, 'slice', { Path: '$.items', Start: '10', End: '13' });
    expect(slice.trim().split('\n')).toEqual([
      "$['items']: array (300 elements)",
      `$['items'][10] = {"id":11,"status":200,"note":"ok 10"}`,
      `$['items'][11] = {"id":12,"status":200,"note":"ok 11"}`,
      `$['items'][12] = {"id":13,"status":200,"note":"ok 12"}`,
    ]);
    await page.close();
  }, 60_000);

  it('a Markdown document: its outline and a section by number or heading', async () => {
    const store = await openStore();
    const markdown = [
      '# Guide',
      '',
      'Intro.',
      '',
      '## Install <img src=x onerror=alert(1)>',
      '',
      'npm install spoolforge',
      '',
      '## Use',
      '',
      'Spool it.',
      '',
    ].join('\n');
    const record = await store.put(markdown, { name: 'guide.md', mediaType: 'text/markdown' });
    const origin = await listen(createArtifactHandler(store));
    const page = await browser().newPage({ viewport });
    await page.goto(`${origin}/artifacts/${record.id}/view`);
    expect(await optionsOf(page)).toEqual(['read', 'grep', 'outline', 'section']);
    const outline = await run(page, 'outline');
    // The outline names headings by their text: the raw HTML in one is not text.
    expect(outline).toBe(
      '1. lines 1–11 # Guide\n2. lines 5–8 ## Install\n3. lines 9–11 ## Use\n3 sections.\n',
    );
    const section = await run(page, 'section', { Heading: '2' });
    expect(section).toContain('5:## Install <img src=x onerror=alert(1)>\n');
    expect(section).toContain('7:npm install spoolforge\n');
    expect(await page.locator('main img, pre img').count()).toBe(0);
    expect(await run(page, 'section', { Heading: 'Use' })).toContain('11:Spool it.');
    expect(await run(page, 'section', { Heading: 'Nope' })).toContain('Nope');
    expect(await page.locator('p.problem').count()).toBe(1);
    await page.close();
  }, 60_000);

  it('a read links to the next and previous pages, signed like the page', async () => {
    const store = await openStore();
    // Lines of 1,000 characters: a 100-line range is cut by the 50 KiB result bound.
    const lines = Array.from({ length: 300 }, (_, index) => `${index + 1} ${'w'.repeat(996)}`);
    const record = await store.put(`${lines.join('\n')}\n`, { name: 'wide log' });
    const signer = createLinkSigner({ key: 'a-link-signing-key-of-32-bytes!!' });
    const origin = await listen(createArtifactHandler(store, { signedLinks: { signer } }));
    const page = await browser().newPage({ viewport });
    const view = `/artifacts/${record.id}/view`;
    await page.goto(
      `${signer.sign(`${origin}${view}`, { scope: `/artifacts/${record.id}` })}&op=read&start=1&end=100`,
    );
    const head = async () =>
      /^lines (\d+)–(\d+) of 300:/.exec((await page.locator('pre.result').textContent()) ?? '');
    const first = await head();
    const shown = Number(first?.[2]);
    expect(first?.[1]).toBe('1');
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(100);
    expect(await page.locator('a[rel=prev]').count()).toBe(0);

    await page.locator('a[rel=next]').first().click();
    await page.waitForURL(new RegExp(`start=${shown + 1}&`));
    expect(page.url()).toContain('signature=');
    expect((await head())?.[1]).toBe(String(shown + 1));

    await page.locator('a[rel=prev]').first().click();
    await page.waitForURL(/start=1&/);
    expect((await head())?.slice(1, 3)).toEqual(['1', String(shown)]);

    await page.goto(
      `${signer.sign(`${origin}${view}`, { scope: `/artifacts/${record.id}` })}&op=read&last=5`,
    );
    expect((await head())?.slice(1, 3)).toEqual(['296', '300']);
    expect(await page.locator('a[rel=next]').count()).toBe(0);
    expect(await page.locator('a[rel=prev]').first().getAttribute('href')).toMatch(
      /op=read&start=291&end=295$/,
    );
    await page.close();
  }, 60_000);
});
