import { PNG } from 'pngjs';
import {
  createArtifactHandler,
  createLinkSigner,
  defineTool,
  Media,
  ToolSession,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasChromium, sharedChromium, viewport } from '../helpers/chromium.js';
import { listen } from '../helpers/http-servers.js';
import { openStore } from '../store/store-helpers.js';

const red = [220, 20, 60];
const blue = [30, 90, 230];

/** A 160 × 80 PNG: its left half red, its right half blue. */
function halvesPng(): Uint8Array {
  const png = new PNG({ width: 160, height: 80 });
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const colour = x < png.width / 2 ? red : blue;
      png.data.set([...colour, 255], (y * png.width + x) * 4);
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const chart = defineTool({
  name: 'chart',
  description: 'Draws a chart.',
  inputSchema: z.object({}),
  handler: () => new Media(halvesPng(), { mediaType: 'image/png', name: 'halves <b>.png' }),
});

const browser = sharedChromium();

/** The colour at (x, y) of a screenshot. */
function pixel(png: PNG, x: number, y: number): number[] {
  const offset = (Math.floor(y) * png.width + Math.floor(x)) * 4;
  return [...png.data.subarray(offset, offset + 3)];
}

describe.skipIf(!hasChromium)('image artifacts in the viewer, in Chromium', () => {
  it.each([
    ['a plain link to a tool image', false, true],
    ['a signed link to a tool image', true, true],
    ['a PNG put without a media type', false, false],
  ])(
    '%s shows it as an image',
    async (_name, signed, fromTool) => {
      const store = await openStore();
      await using session = new ToolSession({ tools: [chart], store });
      const [outcome] = await session.run(
        [{ id: 'call_1', name: 'chart', arguments: {} }],
        session.dispatch(),
      );
      const ref = fromTool
        ? (outcome?.ref ?? '')
        : (await store.put(halvesPng(), { name: 'halves <b>.png' })).id;
      const signer = createLinkSigner({ key: 'a-link-signing-key-of-32-bytes!!' });
      const origin = await listen(
        createArtifactHandler(store, signed ? { signedLinks: { signer } } : {}),
      );
      const view = `${origin}/artifacts/${ref}/view`;
      const page = await browser().newPage({ viewport });
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        // Chromium asks for a favicon the handler does not have.
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
          consoleErrors.push(`${message.text()} ${message.location().url}`);
      });
      const response = await page.goto(
        signed ? signer.sign(view, { scope: `/artifacts/${ref}` }) : view,
      );
      expect(response?.status()).toBe(200);
      const image = page.locator('img.media');
      await expect
        .poll(() =>
          image.evaluate(
            (element) => (element as unknown as { naturalWidth: number }).naturalWidth,
          ),
        )
        .toBe(160);
      expect(await image.getAttribute('alt')).toBe('halves <b>.png'); // escaped, shown as text
      expect(await page.locator('pre.result').count()).toBe(0); // no lines of binary
      expect(await page.content()).not.toContain('IHDR');
      expect(consoleErrors).toEqual([]); // the CSP let the image in

      const shot = PNG.sync.read(await image.screenshot());
      // The element's border is 1 px: sample well inside each half.
      const closeTo = (actual: number[], expected: number[]) =>
        actual.every((value, index) => Math.abs(value - (expected[index] ?? 0)) <= 3);
      const { width, height } = shot;
      expect(width).toBeGreaterThanOrEqual(160);
      expect(closeTo(pixel(shot, width * 0.25, height / 2), red)).toBe(true);
      expect(closeTo(pixel(shot, width * 0.75, height / 2), blue)).toBe(true);
      await page.close();
    },
    60_000,
  );
});

describe('media pages over HTTP', () => {
  it('a PDF is linked, not shown as lines; only an image page lets images in', async () => {
    const store = await openStore();
    const pdf = await store.put(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'), {
      name: 'report.pdf',
      mediaType: 'application/pdf',
    });
    // Stored without its media type: the bytes say what it is.
    const png = await store.put(halvesPng());
    const text = await store.put('plain text\n');
    const origin = await listen(createArtifactHandler(store));
    const view = (id: string) => fetch(`${origin}/artifacts/${id}/view`);

    const pdfPage = await view(pdf.id);
    const pdfHtml = await pdfPage.text();
    expect(pdfHtml).toContain(
      `<a href="/artifacts/${pdf.id}">Open the application/pdf document</a>`,
    );
    expect(pdfHtml).not.toContain('<pre class="result">');
    expect(pdfHtml).not.toContain('<img');

    const pngPage = await view(png.id);
    expect(await pngPage.text()).toContain(`<img class="media" src="/artifacts/${png.id}"`);
    expect(pngPage.headers.get('content-security-policy')).toContain("img-src 'self'");

    const textPage = await view(text.id);
    expect(await textPage.text()).toContain('1:plain text');
    expect(textPage.headers.get('content-security-policy')).not.toContain('img-src');
  });
});
