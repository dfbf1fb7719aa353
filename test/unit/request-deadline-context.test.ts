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
