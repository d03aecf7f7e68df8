import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { ArtifactStore, createArtifactHandler, createLinkSigner } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { hasChromium, sharedChromium, viewport } from '../helpers/chromium.js';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

const browser = sharedChromium();

describe.skipIf(!hasChromium)('the artifact viewer in Chromium', () => {
  it('goes from the index to an artifact, greps it with the form and shows numbered lines', async () => {
    const directory = await tempDirectory();
    const store = await ArtifactStore.open(join(directory, 'store'));
    const lines = Array.from({ length: 500 }, (_, index) =>
      index % 97 === 41 ? `${index + 1} FATAL worker <${index}> crashed` : `${index + 1} fine`,
    );
    await store.put(`${lines.join('\n')}\n`, { name: 'worker log' });
    await store.put('{"other": true}\n', { name: 'unrelated' });
    const origin = await listen(createArtifactHandler(store));

    const page = await browser().newPage({ viewport });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${origin}/artifacts/`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.getByRole('link', { name: 'worker log' }).click();
    await page.waitForURL(/\/view$/);
    expect(await page.locator('pre.result').textContent()).toContain('1:1 fine\n');

    await page.getByLabel('Operation').selectOption('grep');
    await page.getByLabel('Pattern').fill('fatal');
    await page.getByLabel('ignore case').check();
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/op=grep/);
    const result = (await page.locator('pre.result').textContent()) ?? '';
    expect(result).toContain('42:42 FATAL worker <41> crashed\n');
    expect(result).toContain('139:139 FATAL worker <138> crashed\n');
    expect(result).toContain('5 matching lines.');
    expect(await page.getByLabel('Pattern').inputValue()).toBe('fatal');
    expect(consoleErrors).toEqual([]); // the CSP blocked nothing the page needs

    const screenshotPath = join(directory, 'viewer-grep.png');
    await page.screenshot({ path: screenshotPath });
    const box = await page.locator('pre.result').boundingBox();
    await page.close();

    const png = PNG.sync.read(await readFile(screenshotPath));
    expect({ width: png.width, height: png.height }).toEqual(viewport);
    const colours = new Set<number>();
    for (let offset = 0; offset < png.data.length; offset += 4) {
      colours.add(png.data.readUInt32BE(offset));
    }
    expect(colours.size).toBeGreaterThan(50); // text, borders and backgrounds, not a blank page
    // The result box is dark with light text: both must be there.
    expect(box).not.toBeNull();
    const area = brightness(png, box ?? { x: 0, y: 0, width: 0, height: 0 });
    expect(area.dark / area.total).toBeGreaterThan(0.5);
    expect(area.light).toBeGreaterThan(500);
  }, 60_000);

  it('follows a signed index link to an artifact, greps it with the form and opens its body', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const lines = Array.from({ length: 50 }, (_, index) =>
      index === 30 ? '31 FATAL disk gone' : `${index + 1} fine`,
    );
    await store.put(`${lines.join('\n')}\n`, { name: 'signed log' });
    const signer = createLinkSigner({ key: 'a-link-signing-key-of-32-bytes!!' });
    const origin = await listen(createArtifactHandler(store, { signedLinks: { signer } }));

    const page = await browser().newPage({ viewport });
    expect((await page.goto(`${origin}/artifacts/`))?.status()).toBe(403);
    await page.goto(signer.sign(`${origin}/artifacts/`, { expiresIn: 60_000 }));
    await page.getByRole('link', { name: 'signed log' }).click();
    await page.waitForURL(/\/view\?expires=/);
    expect(await page.getByRole('link', { name: '← all artifacts' }).count()).toBe(0);
    await page.getByLabel('Operation').selectOption('grep');
    await page.getByLabel('Pattern').fill('FATAL');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/op=grep/);
    expect(await page.locator('pre.result').textContent()).toContain('31:31 FATAL disk gone\n');
    const raw = await page.getByRole('link', { name: 'Download / raw' }).getAttribute('href');
    const body = await page.request.get(new URL(raw ?? '', origin).href);
    expect(body.status()).toBe(200);
    expect(await body.text()).toBe(`${lines.join('\n')}\n`);
    await page.close();
  }, 60_000);
});

/** Counts the dark and the light pixels of a rectangle of the screenshot. */
function brightness(png: PNG, box: { x: number; y: number; width: number; height: number }) {
  let dark = 0;
  let light = 0;
  let total = 0;
  const bottom = Math.min(png.height, Math.floor(box.y + box.height));
  const right = Math.min(png.width, Math.floor(box.x + box.width));
  for (let y = Math.max(0, Math.ceil(box.y)); y < bottom; y++) {
    for (let x = Math.max(0, Math.ceil(box.x)); x < right; x++) {
      const offset = (y * png.width + x) * 4;
      const luminance =
        0.2126 * (png.data[offset] ?? 0) +
        0.7152 * (png.data[offset + 1] ?? 0) +
        0.0722 * (png.data[offset + 2] ?? 0);
      total++;
      if (luminance < 60) dark++;
      if (luminance > 160) light++;
    }
  }
  return { dark, light, total };
}
