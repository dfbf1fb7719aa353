import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeatureAggregates, type Change } from '../../lib/features/aggregate.js';
import type { Feature, Tag } from '../../lib/features/model.js';
import type { CommitOutcome, FeatureCommit, FeatureStore } from '../../lib/features/store.js';
import { runWithDeadline, timeLeft } from '../../lib/request-deadline.js';
import { WRITE_BUDGET_MS } from '../../lib/time-budget.js';

// The retries of changes that lost a race on one flag, against a feature store port in memory
// that keeps versions as the DynamoDB store does. Its reads take STORE_LATENCY_MS of timers the
// test fakes, so which retries are waiting when a group starts follows from the timers alone,
// never from this machine's speed.

const STORE_LATENCY_MS = 50;
const flag = 'checkout';

const stored = (version: number, tags: Tag[] = []): Feature => ({
  name: flag, project: 'default', type: 'release', description: null, impressionData: false, stale: false,
  archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z', version, tags,
  environments: { development: { enabled: false, strategies: [], variants: [] } }, dependencies: [], children: [],
});

/**
 * A store whose first `firstWave` commits wait for each other and are then applied in arrival
 * order, so exactly one of them wins and the others lost the race, as when concurrent requests
 * read the same version. `refuse` answers a commit whose versions still hold.
 */
function versionedStore(firstWave: number, refuse: (change: FeatureCommit) => CommitOutcome | undefined = () => undefined) {
  let current = stored(1);
  const commits: Array<{ change: FeatureCommit; outcome: CommitOutcome; timeLeft: number | undefined }> = [];
  let arrived = 0;
  let releaseWave: () => void = () => undefined;
  const wave = new Promise<void>((resolve) => (releaseWave = resolve));
  const store: FeatureStore = {
    get: async (name) => {
      await new Promise((resolve) => setTimeout(resolve, STORE_LATENCY_MS));
      return name === flag ? current : undefined;
    },
    getMany: async () => [],
    listAll: async () => [],
    listProject: async () => [],
    commit: async (change) => {
      const left = timeLeft();
      if (arrived < firstWave) {
        arrived += 1;
        if (arrived === firstWave) releaseWave();
        await wave;
      }
      const outcome = apply(change);
      commits.push({ change, outcome, timeLeft: left });
      return outcome;
    },
  };
  function apply(change: FeatureCommit): CommitOutcome {
    for (const { before } of change.writes) {
      if (before?.version !== current.version) return { ok: false, reason: 'version-changed', feature: flag };
    }
    const refused = refuse(change);
    if (refused) return refused;
    current = change.writes.at(-1)?.after ?? current;
    return { ok: true };
  }
  return { store, commits, current: () => current };
}

/** Tags a flag with one value, as the tag service does: the read state plus the tag, one version on. */
const addTag = (value: string): Change<string[]> => async (read) => {
  const before = (await read(flag)) as Feature;
  if (before.tags.some((tag) => tag.value === value)) return { commit: { writes: [] }, result: before.tags.map((tag) => tag.value) };
  const after = { ...before, tags: [...before.tags, { type: 'simple', value }], version: before.version + 1 };
  return { commit: { writes: [{ before, after }] }, result: after.tags.map((tag) => tag.value) };
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // The retries' random pauses, fixed: each is shorter than one store read, whatever they are.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Runs `work` to its end, firing the faked timers as they fall due. */
async function settled<T>(work: Promise<T>): Promise<T> {
  const outcome = work.then((value) => ({ value }), (error: unknown) => ({ error }));
  await vi.runAllTimersAsync();
  const result = await outcome;
  if ('error' in result) throw result.error;
  return result.value;
}

describe('changes that lost a race on one flag', () => {
  it('retry together: of eight tags added at once, the seven that lost commit in two groups, each tag with its own event', async () => {
    const fake = versionedStore(8);
    const aggregates = new FeatureAggregates(fake.store);
    const values = Array.from({ length: 8 }, (_, i) => `tag-${i}`);

    const results = await settled(Promise.all(values.map((value) => aggregates.apply('tester', addTag(value)))));

    expect(fake.current().tags.map((tag) => tag.value).sort()).toEqual(values);
    // The first retry to wake finds no group running and starts one alone; the six that wake
    // while it reads wait for the next, one commit for all six (retried one by one: seven).
    expect(fake.commits.map(({ outcome }) => outcome.ok)).toEqual([true, ...Array(7).fill(false), true, true]);
    const group = fake.commits.at(-1)!.change;
    // One write, conditioned on the version the group read, carrying six changes, each with its event.
    expect(group.writes).toHaveLength(1);
    expect(group.writes[0]!.before?.version).toBe(3);
    expect(group.writes[0]!.after?.version).toBe(9);
    expect(group.events).toHaveLength(6);
    expect(new Set(group.events?.map((event) => event.type))).toEqual(new Set(['feature-changed']));
    // Each answer is the state its own change made: the tags of the changes before it, and its own.
    const sizes = results.map((tags) => tags.length).sort((a, b) => a - b);
    expect(sizes).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const [index, tags] of results.entries()) expect(tags).toContain(values[index]);
  });

  it('run the group in the request with the least time left, so the store refuses a late write for all of them', async () => {
    const fake = versionedStore(4);
    const aggregates = new FeatureAggregates(fake.store);
    const now = Date.now();

    // a wins the first race; b's retry runs alone; c and d wait for the next group together.
    await settled(Promise.all([
      runWithDeadline(now + 60_000, () => aggregates.apply('tester', addTag('a'))),
      runWithDeadline(now + 50_000, () => aggregates.apply('tester', addTag('b'))),
      runWithDeadline(now + 45_000, () => aggregates.apply('tester', addTag('c'))),
      runWithDeadline(now + 30_000, () => aggregates.apply('tester', addTag('d'))),
    ]));

    const group = fake.commits.at(-1)!;
    expect(group.change.events).toHaveLength(2);
    expect(fake.current().tags.map((tag) => tag.value).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(group.timeLeft).toBeLessThanOrEqual(30_000);
    expect(group.timeLeft).toBeGreaterThan(30_000 - WRITE_BUDGET_MS);
  });

  it('leave out a request that can no longer start a write: it answers 503 with nothing written, the others commit', async () => {
    const fake = versionedStore(3);
    const aggregates = new FeatureAggregates(fake.store);
    const now = Date.now();

    const answers = await settled(Promise.allSettled([
      runWithDeadline(now + 60_000, () => aggregates.apply('tester', addTag('a'))),
      runWithDeadline(now + WRITE_BUDGET_MS - 1, () => aggregates.apply('tester', addTag('late'))),
      runWithDeadline(now + 60_000, () => aggregates.apply('tester', addTag('c'))),
    ]));

    const late = answers.find((answer) => answer.status === 'rejected');
    expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(2);
    expect(late).toMatchObject({ reason: { kind: 'unavailable', message: expect.stringMatching(/ran out of time.*nothing was changed/) } });
    expect(fake.current().tags.map((tag) => tag.value).sort()).toEqual(['a', 'c']);
  });

  it('run alone after a refusal that is not a moved version, so the refusal reaches the change it belongs to', async () => {
    const missingSegment: CommitOutcome = { ok: false, reason: 'segment-missing', segmentId: 7 };
    const fake = versionedStore(4, (change) => (change.writes.some(({ after }) => after?.tags.some((tag) => tag.value === 'bad')) ? missingSegment : undefined));
    const aggregates = new FeatureAggregates(fake.store);

    // first wins the first race; second's retry runs alone; bad and good wait for the next group together.
    const [first, second, bad, good] = await settled(Promise.allSettled([
      aggregates.apply('tester', addTag('first')),
      aggregates.apply('tester', addTag('second')),
      aggregates.apply('tester', addTag('bad')),
      aggregates.apply('tester', addTag('good')),
    ]));

    expect([first.status, second.status, good.status]).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(bad).toMatchObject({ status: 'rejected', reason: { kind: 'validation', message: expect.stringMatching(/segment with id 7/) } });
    expect(fake.current().tags.map((tag) => tag.value).sort()).toEqual(['first', 'good', 'second']);
    // The group of bad and good was refused as a whole; each then ran alone.
    expect(fake.commits.filter(({ outcome }) => !outcome.ok && outcome.reason === 'segment-missing').map(({ change }) => change.events?.length)).toEqual([2, 1]);
  });
});
