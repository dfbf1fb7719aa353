import { describe, expect, it } from 'vitest';
import { RevisionClock } from '../../lib/client/revision-clock.js';

/** A revision item in memory that counts its reads. */
function fakeRevision(start = 1) {
  let revision = start;
  let reads = 0;
  return {
    reader: { read: async () => { reads += 1; return { revision, tokenChanges: 0, shards: new Map() }; } },
    write: () => { revision += 1; },
    reads: () => reads,
  };
}

function manualTime() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
}

describe('the revision clock', () => {
  it('reads the revision once per interval, shared by every poll in it', async () => {
    const item = fakeRevision(7);
    const time = manualTime();
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 1000, now: time.now });

    const first = await Promise.all([clock.current(), clock.current(), clock.current()]);
    time.advance(999);
    const later = await clock.current();

    expect(first).toEqual([7, 7, 7]);
    expect(later).toBe(7);
    expect(item.reads()).toBe(1);
  });

  it('reads again once the interval is over, and sees another writer then', async () => {
    const item = fakeRevision(1);
    const time = manualTime();
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 1000, now: time.now });
    await clock.current();

    item.write();
    const within = await clock.current();
    time.advance(1000);
    const after = await clock.current();

    expect(within).toBe(1);
    expect(after).toBe(2);
    expect(item.reads()).toBe(2);
  });

  it('reads on every call when the interval is 0', async () => {
    const item = fakeRevision();
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 0, now: () => 0 });

    await clock.current();
    await clock.current();
    await clock.current();

    expect(item.reads()).toBe(3);
  });

  it('reads again at once after this process wrote (invalidate), within the interval', async () => {
    const item = fakeRevision(4);
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 60_000, now: () => 0 });
    await clock.current();

    item.write();
    clock.invalidate();

    expect(await clock.current()).toBe(5);
    expect(item.reads()).toBe(2);
  });

  it('does not hand a read begun before a local write to a poll after it', async () => {
    let release: (revision: number) => void = () => undefined;
    const reads: number[] = [];
    const reader = {
      read: () => new Promise<number>((resolve) => { reads.push(reads.length); release = resolve; }).then((revision) => ({ revision, tokenChanges: 0, shards: new Map() })),
    };
    const clock = new RevisionClock(reader, { checkIntervalMs: 60_000, now: () => 0 });

    const before = clock.current();
    const releaseBefore = release;
    clock.invalidate();
    const after = clock.current();
    releaseBefore(1);
    release(2);

    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(reads).toHaveLength(2);
  });

  it('reads again when a caller has already seen a newer revision (monotonic reads)', async () => {
    const item = fakeRevision(10);
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 60_000, now: () => 0 });
    await clock.current();

    item.write();
    const answer = await clock.current(11);

    expect(answer).toBe(11);
    expect(item.reads()).toBe(2);
  });

  it('answers with a fresh read, once, when a caller names a revision the table does not hold', async () => {
    const item = fakeRevision(3);
    const clock = new RevisionClock(item.reader, { checkIntervalMs: 60_000, now: () => 0 });
    await clock.current();

    const answer = await clock.current(99);

    expect(answer).toBe(3);
    expect(item.reads()).toBe(2);
  });

  it('does not remember a failed read', async () => {
    let fail = true;
    const reader = { read: async () => { if (fail) throw new Error('throttled'); return { revision: 5, tokenChanges: 0, shards: new Map() }; } };
    const clock = new RevisionClock(reader, { checkIntervalMs: 60_000, now: () => 0 });

    await expect(clock.current()).rejects.toThrow('throttled');
    fail = false;

    expect(await clock.current()).toBe(5);
  });
});
