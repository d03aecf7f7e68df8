import { SpoolforgeError } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { YieldPacer } from '../../src/spool/yield-pacer.js';

const mebibyte = 1024 * 1024;

/**
 * How the pause `paused` returns settles, and whether a `setImmediate` callback queued before
 * it was taken had run by then (it has when the pause waited a turn of the event loop).
 */
async function settle(paused: () => Promise<void> | undefined) {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  try {
    await paused();
    return { ran, error: undefined };
  } catch (error) {
    return { ran, error };
  }
}

describe('YieldPacer', () => {
  it('waits a turn of the event loop only once 8 MiB have been counted', async () => {
    const pacer = new YieldPacer();
    // 127 reads of 64 KiB, 64 KiB short of 8 MiB: no pause, and no promise.
    for (let read = 0; read < 127; read++) {
      pacer.count(64 * 1024);
      expect(pacer.pause()).toBeUndefined();
    }
    pacer.count(64 * 1024);
    expect(await settle(() => pacer.pause())).toEqual({ ran: true, error: undefined });
    // The count starts again at the pause.
    expect(pacer.pause()).toBeUndefined();
    expect(pacer.after(8 * mebibyte - 1)).toBeUndefined();
    expect(await settle(() => pacer.after(1))).toEqual({ ran: true, error: undefined });
  });

  it('pauses once for one write past 8 MiB, then counts from 0', async () => {
    const pacer = new YieldPacer();
    expect(await settle(() => pacer.after(20 * mebibyte))).toEqual({ ran: true, error: undefined });
    expect(pacer.after(8 * mebibyte - 1)).toBeUndefined();
  });

  it('checks the signal after its turn, and only when it pauses', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const pacer = new YieldPacer();
    // Not due: no turn, no check.
    expect(pacer.after(mebibyte, controller.signal)).toBeUndefined();
    const { ran, error } = await settle(() => pacer.after(7 * mebibyte, controller.signal));
    expect(ran).toBe(true);
    expect(SpoolforgeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'E_ABORTED', cause: new Error('stop') });
  });

  it('sees an abort that fires between the pause and the end of its turn', async () => {
    const controller = new AbortController();
    const pacer = new YieldPacer();
    pacer.count(8 * mebibyte);
    const pause = pacer.pause(controller.signal);
    controller.abort();
    expect((await settle(() => pause)).error).toMatchObject({ code: 'E_ABORTED' });
    // Without a signal a pause resolves.
    pacer.count(8 * mebibyte);
    expect(await settle(() => pacer.pause())).toEqual({ ran: true, error: undefined });
  });
});
