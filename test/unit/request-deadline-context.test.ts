import { executionAsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { runWithDeadline, timeLeft } from '../../lib/request-deadline.js';

describe('the request deadline’s async context', () => {
  it('keeps each running request’s deadline while others start and end, and none outside them', async () => {
    const deadline = Date.now() + 60_000;
    let releaseLong!: () => void;
    const longHeld = new Promise<void>((resolve) => (releaseLong = resolve));
    const seenByLong: (number | undefined)[] = [];
    const long = runWithDeadline(deadline, async () => {
      seenByLong.push(timeLeft());
      await longHeld;
      seenByLong.push(timeLeft());
    });
    // A short request starts and ends while the long one waits.
    const seenByShort = await runWithDeadline(deadline - 30_000, async () => {
      await null;
      return timeLeft();
    });
    releaseLong();
    await long;

    expect(seenByShort).toBeLessThanOrEqual(30_000);
    expect(seenByShort).toBeGreaterThan(0);
    expect(seenByLong).toHaveLength(2);
    for (const left of seenByLong) expect(left).toBeGreaterThan(30_000);
    expect(timeLeft()).toBeUndefined();
  });
});

/**
 * Whether promises are tracked by async hooks now: with the hooks on, each await resumes in its
 * own promise's resource; with them off, every await resumes in the same outer resource.
 */
async function promiseHooksOn(): Promise<boolean> {
  await null;
  const first = executionAsyncResource();
  await null;
  return first !== executionAsyncResource();
}

describe('the async hooks behind the deadline', () => {
  it('are on while a request runs and off again once none runs, so later work pays nothing for them', async () => {
    // An earlier test's last request turns them off on the event loop's next turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await promiseHooksOn()).toBe(false);
    let during: boolean | undefined;
    await runWithDeadline(Date.now() + 60_000, async () => {
      during = await promiseHooksOn();
    });
    expect(during).toBe(true);
    // They go off on the event loop's next turn, outside every promise callback.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await promiseHooksOn()).toBe(false);
  });

  it('stay on while another request still runs', async () => {
    let releaseLong!: () => void;
    const longHeld = new Promise<void>((resolve) => (releaseLong = resolve));
    let seenAfterShort: number | undefined;
    const long = runWithDeadline(Date.now() + 60_000, async () => {
      await longHeld;
      seenAfterShort = timeLeft();
    });
    await runWithDeadline(Date.now() + 60_000, async () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await promiseHooksOn()).toBe(true);
    releaseLong();
    await long;
    expect(seenAfterShort).toBeGreaterThan(0);
  });
});
