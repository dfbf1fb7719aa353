import { describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../lib/integrations/model.js';
import { runWithDeadline, timeLeft } from '../../lib/request-deadline.js';
import { LocalDeliveryQueue } from '../../local/integrations-queue.js';
import { LocalMetricsQueue } from '../../local/metrics-queue.js';

describe('the local queues on timers', () => {
  it('delivers a message a request sent as no request’s, as its own invocation would in AWS', async () => {
    const queue = new LocalDeliveryQueue('context', { maxReceiveCount: 2, backoffMs: () => 0, timers: true });
    const seen: Array<number | undefined> = [];
    let delivered!: () => void;
    const bothDelivered = new Promise<void>((resolve) => (delivered = resolve));
    queue.consume(async () => {
      seen.push(timeLeft());
      // The first delivery fails, so its retry is scheduled from inside the delivery too.
      if (seen.length === 2) delivered();
      return { retry: seen.length === 1 };
    });
    let releaseLong!: () => void;
    // Another request running keeps the deadline's async context on throughout.
    const long = runWithDeadline(Date.now() + 60_000, () => new Promise<void>((resolve) => (releaseLong = resolve)));
    try {
      const sentInside = await runWithDeadline(Date.now() + 60_000, async () => {
        await queue.send([{ integrationId: 1 } as DeliveryMessage]);
        return timeLeft();
      });
      expect(sentInside).toBeGreaterThan(0);
      await bothDelivered;
    } finally {
      releaseLong();
      await long;
      await queue.stop();
    }
    expect(seen).toEqual([undefined, undefined]);
  });

  it('delivers the metrics of a window a request opened as no request’s', async () => {
    const queue = new LocalMetricsQueue('context', { windowMs: 1 });
    let seen: Array<number | undefined> | undefined;
    const delivered = new Promise<void>((resolve) => {
      queue.consume(async () => {
        seen = [timeLeft()];
        resolve();
      });
    });
    let releaseLong!: () => void;
    const long = runWithDeadline(Date.now() + 60_000, () => new Promise<void>((resolve) => (releaseLong = resolve)));
    try {
      await runWithDeadline(Date.now() + 60_000, () => queue.send('{}'));
      await delivered;
    } finally {
      releaseLong();
      await long;
      await queue.stop();
    }
    expect(seen).toEqual([undefined]);
  });
});
