import { CaseFoldingBytesLineMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { needleAnchor } from '../../src/grep/needle-anchor.js';

const requestLog = Buffer.from(
  'INFO req=req-1 user logged in\nWARN req=req-2 quiet period\nINFO req=req-3 sequence ok\n'.repeat(
    50,
  ),
);

describe('needleAnchor', () => {
  it('picks the byte the block holds least, both cases counted when folding', () => {
    // Every `req=` holds a `q`: `_` (absent from the sample) is the anchor, though a
    // ranking by English letter frequency would take the `q`.
    expect(needleAnchor(Buffer.from('fatal_disk_quota'), requestLog, true)).toBe(5);
    expect(needleAnchor(Buffer.from('req'), requestLog)).toBe(2);
    // `W` is rarer than `I` here; case-sensitive, `w` does not count for it.
    expect(needleAnchor(Buffer.from('IW'), requestLog)).toBe(1);
  });

  it('falls back to the rarer byte in logs and prose when counts tie (an empty block)', () => {
    expect(needleAnchor(Buffer.from('ez'), Buffer.alloc(0))).toBe(1);
    expect(needleAnchor(Buffer.from('Ez'), Buffer.alloc(0))).toBe(0);
  });

  it('lets a case-folding search anchor on a byte that is not a letter', () => {
    const matcher = new CaseFoldingBytesLineMatcher('fatal_disk_quota');
    const block = Buffer.from(
      `${requestLog}FATAL_DISK_QUOTA one\nfatal disk quota\nx Fatal_Disk_Quota\nfatal_disk_quot\n`,
    );
    const starts = Array.from(matcher.matchingLines(block));
    const lines = starts.map((start) => block.toString('latin1', start, block.indexOf(10, start)));
    expect(lines).toEqual(['FATAL_DISK_QUOTA one', 'x Fatal_Disk_Quota']);
  });
});
