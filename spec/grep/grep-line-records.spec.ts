import { describe, expect, it } from 'vitest';
import { batchBytes, GrepRecordWriter, readGrepRecords } from '../../src/grep/grep-line-records.js';
import { grepReadOptions } from '../../src/grep/grep-scan.js';

describe('GrepRecordWriter', () => {
  it('reuses a batch buffer that took a whole block of text after most of a batch', () => {
    const writer = new GrepRecordWriter({ plain: true });
    // Just under a batch, then a block's printed lines at once (a scan's block is one read).
    writer.addText(Buffer.from(`${'a'.repeat(batchBytes - 2)}\n`), 1);
    const block = Buffer.from(`${'b'.repeat(grepReadOptions.recycledChunkSize - 1)}\n`);
    writer.addText(block, 1);
    const first = writer.take();
    expect(first.length).toBe(batchBytes - 1 + block.length);
    writer.recycle(first.buffer as ArrayBuffer);
    writer.addText(Buffer.from('c\n'), 1);
    writer.take();
    // Not grown, so taken back: the batch after is written into the same memory.
    writer.addText(Buffer.from('d\n'), 1);
    expect(writer.take().buffer === first.buffer).toBe(true);
  });

  it('keeps records, added line by line, in buffers of a batch: credit counts buffers', () => {
    const writer = new GrepRecordWriter();
    writer.add(Buffer.from('ERROR disk'), 41, true);
    expect(writer.take().buffer.byteLength).toBe(batchBytes);
  });

  it('hands records over with their line numbers and selection', () => {
    const writer = new GrepRecordWriter();
    writer.add(Buffer.from('ERROR disk'), 41, true);
    writer.add(Buffer.from('context'), 42, false);
    const seen: [string, number, boolean][] = [];
    readGrepRecords(writer.take(), (bytes, lineNumber, selected) => {
      seen.push([Buffer.from(bytes).toString(), lineNumber, selected]);
      return true;
    });
    expect(seen).toEqual([
      ['ERROR disk', 41, true],
      ['context', 42, false],
    ]);
  });
});
