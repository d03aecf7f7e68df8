// Writes the BPE vocabularies spoolforge counts tokens with (dist/tokens/<encoding>.bin) from
// gpt-tokenizer's rank tables (a devDependency; its data is MIT-licensed). gpt-tokenizer ships
// them as JavaScript arrays of strings, which cost a process ~60 MiB once parsed; the binary
// form is read into one Buffer (src/artifact/tokens/bpe-vocabulary.ts reads it).
//
// Layout, little-endian: the magic `SFBP`, uint32 version (1), uint32 token count, uint32 byte
// count; then one uint8 length per rank; then every token's bytes, rank after rank. A length of
// 0 marks a rank gpt-tokenizer never produces (see tokenBytes), so counts stay its counts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const vocabularyEncodings = ['o200k_base', 'cl100k_base'];
const magic = 'SFBP';
const version = 1;
const headerBytes = 16;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const byteOrderMark = [0xef, 0xbb, 0xbf];

/** Whether `bytes` is valid UTF-8 (gpt-tokenizer looks such keys up as strings). */
function isUtf8(bytes) {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTF-8 bytes of each rank of gpt-tokenizer's table, empty for a rank it never produces.
 * Throws where the table breaks what the binary form assumes, so a new gpt-tokenizer cannot
 * change counts silently: no hole, a string token survives UTF-8 both ways, no two ranks with
 * the same bytes, none longer than 255 bytes, and a byte-array token is not UTF-8 unless it
 * starts with a byte order mark. gpt-tokenizer looks up UTF-8 bytes as a string decoded with
 * the mark dropped, so those (`\uFEFFusing`…) are never found; their bytes find the rank of
 * the rest (`using`), which the counter reproduces (src/artifact/tokens/bpe-vocabulary.ts).
 */
function tokenBytes(name, ranks) {
  const seen = new Set();
  // Array.from, not ranks.map: map skips the holes of a sparse array, which must fail here.
  return Array.from(ranks, (token, rank) => {
    if (token === undefined) throw new Error(`${name}: rank ${rank} is missing`);
    const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
    if (typeof token === 'string' && strictDecoder.decode(bytes) !== token) {
      throw new Error(`${name}: rank ${rank} does not round-trip as UTF-8`);
    }
    if (typeof token !== 'string' && isUtf8(bytes)) {
      if (byteOrderMark.every((byte, index) => bytes[index] === byte)) return new Uint8Array(0);
      throw new Error(`${name}: rank ${rank} is UTF-8 stored as bytes`);
    }
    const key = Buffer.from(bytes).toString('latin1');
    if (seen.has(key)) throw new Error(`${name}: rank ${rank} repeats an earlier token`);
    seen.add(key);
    if (bytes.length === 0 || bytes.length > 255) {
      throw new Error(`${name}: rank ${rank} is ${bytes.length} bytes long`);
    }
    return bytes;
  });
}

/** The binary vocabulary of one rank table (see the layout above). */
export function encodeVocabulary(name, ranks) {
  const tokens = tokenBytes(name, ranks);
  const byteCount = tokens.reduce((sum, bytes) => sum + bytes.length, 0);
  const out = Buffer.alloc(headerBytes + tokens.length + byteCount);
  out.write(magic, 0, 'latin1');
  out.writeUInt32LE(version, 4);
  out.writeUInt32LE(tokens.length, 8);
  out.writeUInt32LE(byteCount, 12);
  let offset = headerBytes + tokens.length;
  tokens.forEach((bytes, rank) => {
    out[headerBytes + rank] = bytes.length;
    out.set(bytes, offset);
    offset += bytes.length;
  });
  return out;
}

/** Writes `<directory>/<encoding>.bin` for each encoding spoolforge counts exactly. */
export async function writeVocabularies(directory) {
  mkdirSync(directory, { recursive: true });
  for (const name of vocabularyEncodings) {
    const { default: ranks } = await import(`gpt-tokenizer/bpeRanks/${name}`);
    writeFileSync(join(directory, `${name}.bin`), encodeVocabulary(name, ranks));
  }
}
