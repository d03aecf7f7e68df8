import { Media, SpoolforgeError } from 'spoolforge';
import { sniffMediaType } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { tempDirectory, tempFile } from '../helpers/temp-files.js';

/** The first bytes of real files of each format, followed by filler. */
const samples: Record<string, { name: string; bytes: Uint8Array; isImage: boolean }> = {
  'image/png': {
    name: 'chart.png',
    bytes: withFiller([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    isImage: true,
  },
  'image/jpeg': { name: 'photo.jpg', bytes: withFiller([0xff, 0xd8, 0xff, 0xe0]), isImage: true },
  'image/gif': { name: 'anim.gif', bytes: withFiller([...ascii('GIF89a')]), isImage: true },
  'image/webp': {
    name: 'pic.webp',
    bytes: withFiller([...ascii('RIFF'), 0x24, 0, 0, 0, ...ascii('WEBPVP8 ')]),
    isImage: true,
  },
  'application/pdf': {
    name: 'report.pdf',
    bytes: withFiller([...ascii('%PDF-1.7\n')]),
    isImage: false,
  },
};

function ascii(text: string): number[] {
  return [...Buffer.from(text, 'latin1')];
}

function withFiller(head: number[]): Uint8Array {
  const bytes = new Uint8Array(head.length + 300);
  bytes.set(head);
  for (let index = head.length; index < bytes.length; index++) bytes[index] = (index * 31) & 0xff;
  return bytes;
}

describe('Media.fromFile', () => {
  for (const [mediaType, { name, bytes, isImage }] of Object.entries(samples)) {
    it(`sniffs ${mediaType} from its magic bytes`, async () => {
      const media = await Media.fromFile(await tempFile(bytes, name));
      expect(media.mediaType).toBe(mediaType);
      expect(media.name).toBe(name);
      expect(media.byteLength).toBe(bytes.length);
      expect(media.bytes).toEqual(bytes);
      expect(media.isImage()).toBe(isImage);
      expect(sniffMediaType(bytes)).toBe(mediaType);
    });
  }

  it('rejects an unknown format with E_INVALID_ARGUMENT unless a mediaType is given', async () => {
    const path = await tempFile('just some text\n', 'notes.txt');
    const error = await Media.fromFile(path).catch((caught: unknown) => caught);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_INVALID_ARGUMENT');
    expect((error as Error).message).toContain('notes.txt');
    expect((error as Error).message).toContain('mediaType');
    const media = await Media.fromFile(path, { mediaType: 'text/plain', name: 'notes' });
    expect(media.mediaType).toBe('text/plain');
    expect(media.name).toBe('notes');
    expect(media.isImage()).toBe(false);
  });

  it('does not take a RIFF file that is not WebP (a WAV) for an image', async () => {
    const wave = withFiller([...ascii('RIFF'), 0x24, 0, 0, 0, ...ascii('WAVEfmt ')]);
    expect(sniffMediaType(wave)).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    await expect(Media.fromFile(await tempFile(wave, 'sound.wav'))).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });

  it('refuses a file over maxBytes with E_ARTIFACT_TOO_LARGE', async () => {
    const path = await tempFile(samples['image/png']?.bytes as Uint8Array, 'big.png');
    const error = await Media.fromFile(path, { maxBytes: 100 }).catch((caught: unknown) => caught);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_ARTIFACT_TOO_LARGE');
    expect((error as Error).message).toMatch(/big\.png: 312 bytes is over the media limit of 100/);
    expect((await Media.fromFile(path, { maxBytes: 312 })).byteLength).toBe(312);
  });

  it('reports a missing file, a directory and an aborted read clearly', async () => {
    const directory = await tempDirectory();
    await expect(Media.fromFile(`${directory}/missing.png`)).rejects.toMatchObject({
      code: 'E_FILE_NOT_FOUND',
    });
    await expect(Media.fromFile(directory)).rejects.toMatchObject({ code: 'E_NOT_A_FILE' });
    const controller = new AbortController();
    controller.abort();
    const path = await tempFile(samples['image/gif']?.bytes as Uint8Array, 'anim.gif');
    await expect(Media.fromFile(path, { signal: controller.signal })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
  });
});

describe('Media', () => {
  it('enforces the 20 MiB default limit in the constructor', () => {
    expect(Media.defaultMaxBytes).toBe(20 * 1024 * 1024);
    const atLimit = new Uint8Array(Media.defaultMaxBytes);
    expect(new Media(atLimit, { mediaType: 'image/png' }).byteLength).toBe(atLimit.length);
    expect(
      () => new Media(new Uint8Array(Media.defaultMaxBytes + 1), { mediaType: 'image/png' }),
    ).toThrowError(expect.objectContaining({ code: 'E_ARTIFACT_TOO_LARGE' }));
    expect(() => new Media(new Uint8Array(10), { mediaType: 'image/png', maxBytes: 9 })).toThrow(
      /over the media limit of 9 bytes/,
    );
  });

  it('encodes base64 from exactly its bytes, even for a view into a larger buffer', () => {
    const backing = new Uint8Array(64).map((_, index) => index * 7);
    const view = backing.subarray(5, 30);
    const media = new Media(view, { mediaType: 'application/pdf' });
    expect(media.toBase64()).toBe(Buffer.from(view).toString('base64'));
    expect(Buffer.from(media.toBase64(), 'base64')).toEqual(Buffer.from(view));
    expect(new Media(new Uint8Array(0), { mediaType: 'image/gif' }).toBase64()).toBe('');
  });

  it('normalizes the media type and rejects a malformed one', () => {
    expect(new Media(new Uint8Array(1), { mediaType: ' Image/PNG ' }).mediaType).toBe('image/png');
    for (const mediaType of ['', 'png', 'image/', 'image/png; charset=x']) {
      expect(() => new Media(new Uint8Array(1), { mediaType })).toThrowError(
        expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }),
      );
    }
  });

  it('recognizes instances by brand, not by shape', () => {
    const media = new Media(new Uint8Array(1), { mediaType: 'image/png' });
    expect(Media.isInstance(media)).toBe(true);
    expect(Media.isInstance({ bytes: new Uint8Array(1), mediaType: 'image/png' })).toBe(false);
    expect(Media.isInstance(null)).toBe(false);
    // Another copy of the package brands its instances with the same global symbol.
    expect(Media.isInstance({ [Symbol.for('spoolforge.media')]: true })).toBe(true);
  });
});
