import { describe, expect, it } from 'vitest';
import { forEachChunk } from '../../src/shared/for-each-chunk.js';

/** A source of `count` numbered chunks that records whether it was closed. */
function numbered(count: number) {
  const state = { closed: false };
  async function* chunks() {
    try {
      for (let index = 0; index < count; index++) yield index;
    } finally {
      state.closed = true;
    }
  }
  return { state, source: chunks() };
}

describe('forEachChunk', () => {
  it('hands every chunk on in order, waiting for each, and settles once the source ends', async () => {
    const { state, source } = numbered(5);
    const seen: number[] = [];
    let busy = false;
    await forEachChunk(source, async (chunk) => {
      expect(busy).toBe(false);
      busy = true;
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(chunk);
      busy = false;
    });
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(state.closed).toBe(true);
  });

  it('settles at once for an empty source', async () => {
    const { source } = numbered(0);
    await expect(forEachChunk(source, () => undefined)).resolves.toBeUndefined();
  });

  it('rejects with what consume threw and closes the source', async () => {
    const { state, source } = numbered(5);
    const seen: number[] = [];
    const failing = forEachChunk(source, (chunk) => {
      seen.push(chunk);
      if (chunk === 2) throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(seen).toEqual([0, 1, 2]);
    expect(state.closed).toBe(true);
  });

  it('rejects with what the source threw', async () => {
    async function* broken() {
      yield 1;
      throw new Error('connection reset');
    }
    await expect(forEachChunk(broken(), () => undefined)).rejects.toThrow('connection reset');
  });

  it('stops at an abort between chunks and closes the source', async () => {
    const { state, source } = numbered(100);
    const controller = new AbortController();
    const seen: number[] = [];
    const aborted = forEachChunk(
      source,
      (chunk) => {
        seen.push(chunk);
        if (chunk === 3) controller.abort();
      },
      { signal: controller.signal },
    );
    await expect(aborted).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(state.closed).toBe(true);
  });

  it('rejects at once when the signal fires while the source is silent, or had fired before', async () => {
    async function* silent() {
      yield 'first';
      await new Promise(() => {});
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(
      forEachChunk(silent(), () => undefined, { signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'E_ABORTED' });
    const { source } = numbered(1);
    const consumed: number[] = [];
    await expect(
      forEachChunk(source, (chunk) => void consumed.push(chunk), { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(consumed).toEqual([]);
  });
});
