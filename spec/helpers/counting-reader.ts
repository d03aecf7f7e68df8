import type { SpoolReader } from 'spoolforge';

/** Wraps a reader and counts the bytes it hands out. */
export function counting(reader: SpoolReader) {
  const counter = { bytes: 0 };
  const wrapped: SpoolReader = {
    byteLength: () => reader.byteLength(),
    read: async (position, length, options) => {
      const bytes = await reader.read(position, length, options);
      counter.bytes += bytes.length;
      return bytes;
    },
  };
  return { reader: wrapped, counter };
}
