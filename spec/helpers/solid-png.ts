import { PNG } from 'pngjs';

/** A real PNG file of `width` × `height` pixels, all of one opaque colour. */
export function solidPng(width: number, height: number, [red, green, blue]: number[]): Uint8Array {
  const png = new PNG({ width, height });
  for (let offset = 0; offset < png.data.length; offset += 4) {
    png.data[offset] = red ?? 0;
    png.data[offset + 1] = green ?? 0;
    png.data[offset + 2] = blue ?? 0;
    png.data[offset + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png));
}
