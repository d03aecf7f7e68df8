/**
 * The floor of plain Node under a grep row: the least a Node program pays for the same job, with
 * none of spoolforge's work, so a row that misses its goal shows how close to that limit it is.
 *
 *   node node-floor.mjs read FILE                    reads FILE once (readSync, one reused
 *                                                    1 MiB buffer); prints its byte count
 *   node node-floor.mjs print FILE LITERAL [invert]  and prints every line holding LITERAL (or,
 *                                                    with invert, lacking it) as grep does:
 *                                                    Buffer.indexOf per hit, runs of lines
 *                                                    copied whole, 1 MiB writes
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const [mode, path, literal, invert] = process.argv.slice(2);
if (path === undefined || (mode !== 'read' && (mode !== 'print' || literal === undefined))) {
  process.stderr.write('usage: node-floor read FILE | print FILE LITERAL [invert]\n');
  process.exit(2);
}
const newline = 0x0a;
const chunkBytes = 1024 * 1024;
const file = openSync(path, 'r');
let buffer = Buffer.allocUnsafe(chunkBytes);

if (mode === 'read') {
  let total = 0;
  for (let read = readSync(file, buffer); read > 0; read = readSync(file, buffer)) total += read;
  process.stdout.write(`${total}\n`);
} else {
  const needle = Buffer.from(literal as string);
  const output = Buffer.allocUnsafe(chunkBytes);
  let outputLength = 0;
  const emit = (from: number, to: number) => {
    if (outputLength + to - from > output.length) {
      writeSync(1, output, 0, outputLength);
      outputLength = 0;
    }
    if (to - from > output.length) writeSync(1, buffer, from, to - from);
    else outputLength += buffer.copy(output, outputLength, from, to);
  };
  // Lines [0, end) of the buffer, each ending in a newline: selected ones go to the output.
  const select = (end: number) => {
    let position = 0;
    while (position < end) {
      const hit = buffer.indexOf(needle, position);
      const hitLine = hit === -1 || hit >= end ? end : buffer.lastIndexOf(newline, hit) + 1;
      const hitLineEnd = hitLine === end ? end : buffer.indexOf(newline, hit) + 1;
      if (invert) emit(position, Math.max(position, hitLine));
      else if (hitLine < end) emit(Math.max(position, hitLine), hitLineEnd);
      position = hitLineEnd;
    }
  };
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(filled)]);
    const read = readSync(file, buffer, filled, buffer.length - filled, null);
    if (read === 0) break;
    filled += read;
    const end = buffer.lastIndexOf(newline, filled - 1) + 1;
    select(end);
    buffer.copy(buffer, 0, end, filled);
    filled -= end;
  }
  if (filled > 0) {
    // A last line without a newline is printed with one, as grep prints it.
    if (filled === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(1)]);
    buffer[filled] = newline;
    select(filled + 1);
  }
  writeSync(1, output, 0, outputLength);
}
closeSync(file);
