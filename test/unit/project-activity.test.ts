import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import { SETTLE_MS } from '../../lib/events/settled-months.js';
import { unleashEventCount } from '../../lib/events/wire.js';
import { MAX_TALLIED_EVENTS, ProjectActivity, type CountedKind } from '../../lib/insights/project-activity.js';
import { seededRandom } from '../support/seeded-random.js';

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const production = new Set(['production', 'live']);

/**
 * Events of two projects over more than a year, each committed a few seconds after its
 * createdAt (never later than SETTLE_MS), drawn from a seeded generator: created, archived,
 * member-added, switched on and off in three environments, some with several changes at once.
 */
function history(random: () => number, start: number, count: number) {
  const events: Array<ChangeEvent & { committedAt: number }> = [];
  let at = start;
  for (let i = 0; i < count; i += 1) {
    at += Math.floor(random() * 3 * 60 * 60_000);
    const feature = `f${Math.floor(random() * 40)}`;
    const environment = ['development', 'production', 'live'][Math.floor(random() * 3)] as string;
    const roll = random();
    const changes = roll < 0.1 ? ['created'] : roll < 0.15 ? ['archived'] : roll < 0.8
      ? [`${random() < 0.7 ? 'enabled' : 'disabled'}:${environment}`, ...(random() < 0.3 ? ['enabled:production', 'strategies:production'] : [])]
      : [];
    const type = roll >= 0.95 ? 'project-member-added' : 'feature-changed';
    events.push({
      id: `e${String(i).padStart(6, '0')}`, type, createdAt: new Date(at).toISOString(), createdBy: 't',
      project: random() < 0.7 ? 'p' : 'q', featureName: type === 'feature-changed' ? feature : undefined, changes,
      committedAt: at + Math.floor(random() * 30_000),
    });
  }
  return events;
}

/** The counts as the project pages made them before, from every event of the window. */
const reference = {
  count(events: readonly ChangeEvent[], kind: CountedKind, from: number, to: number) {
    return events.filter((event) => {
      const at = Date.parse(event.createdAt);
      if (event.project !== 'p' || at < from || at >= to) return false;
      if (kind === 'events') return true;
      if (kind === 'member-added') return event.type === 'project-member-added';
      return event.changes?.includes(kind) ?? false;
    }).length;
  },
  actionsByDay(events: readonly ChangeEvent[], from: number, to: number) {
    const counts = new Map<string, number>();
    for (const event of events) {
      const at = Date.parse(event.createdAt);
      if (event.project !== 'p' || at < from || at >= to) continue;
      counts.set(event.createdAt.slice(0, 10), (counts.get(event.createdAt.slice(0, 10)) ?? 0) + unleashEventCount(event));
    }
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }));
  },
  firstEnablings(events: readonly ChangeEvent[], from: number, to: number) {
    const seen = new Set<string>();
    const firsts = new Map<string, number>();
    for (const event of events) {
      const at = Date.parse(event.createdAt);
      if (event.project !== 'p' || at < from || at >= to || !event.featureName || seen.has(event.featureName)) continue;
      if ((event.changes ?? []).some((change) => change.startsWith('enabled:') && production.has(change.slice('enabled:'.length)))) {
        seen.add(event.featureName);
        firsts.set(event.featureName, at);
      }
    }
    return firsts;
  },
};

describe('project activity counted once per container', () => {
  it('answers every window as counting all its events does, reading only what is newer than what it counted', async () => {
    const random = seededRandom('project activity').next;
    const start = Date.UTC(2025, 0, 1);
    const events = history(random, start, 2_000);
    const end = Date.parse((events.at(-1) as ChangeEvent).createdAt);
    let now = start + 60 * DAY_MS;
    const asked: Array<{ from: number; to: number; now: number }> = [];
    // Drawn oldest first, with ids in the same order: the order of the sort keys.
    const visible = () => events.filter((event) => event.committedAt <= now);
    const reader = {
      between: async (from: Date, to: Date) => {
        asked.push({ from: from.getTime(), to: to.getTime(), now });
        return visible().filter((event) => Date.parse(event.createdAt) >= from.getTime() && Date.parse(event.createdAt) < to.getTime());
      },
    };
    const activity = new ProjectActivity(reader, () => new Date(now));

    let calls = 0;
    while (now < end + DAY_MS) {
      // A year (the status) or the two 30-day windows (the header), as the pages ask.
      const from = now - (random() < 0.5 ? YEAR_MS : 60 * DAY_MS);
      const to = now + 1;
      const counts = await activity.of('p', new Date(from), new Date(to));
      const seen = visible();
      const current = now - 30 * DAY_MS;

      expect(counts.actionsByDay(from, to)).toEqual(reference.actionsByDay(seen, from, to));
      for (const kind of ['events', 'created', 'archived', 'member-added'] as const) {
        expect(counts.count(kind, current, to), kind).toBe(reference.count(seen, kind, current, to));
        expect(counts.count(kind, from, current), kind).toBe(reference.count(seen, kind, from, current));
      }
      const firsts = counts.firstEnablings(production, from, to);
      expect(new Map(firsts.map(({ feature, at }) => [feature, at]))).toEqual(reference.firstEnablings(seen, from, to));
      expect(firsts.map(({ at }) => at)).toEqual([...firsts.map(({ at }) => at)].sort((a, b) => a - b));
      calls += 1;
      // Mostly minutes apart (events still settling), now and then half a day.
      now += Math.floor(random() * (random() < 0.7 ? 10 * 60_000 : 12 * 60 * 60_000));
    }

    expect(calls).toBeGreaterThan(100);
    // After its first read, a call reads from where the events settled at the call before it,
    // except when a window starts before the span counted (the year after the two months).
    const rereads = asked.filter((read, i) => i > 0 && read.from < (asked[i - 1] as { now: number }).now - SETTLE_MS - 1);
    expect(rereads.length).toBeLessThanOrEqual(1);
  });

  it('gives a caller that counts after a later call has read the same counts as a call alone', async () => {
    // An event a minute for two days, each committed a second after its createdAt.
    const start = Date.UTC(2025, 0, 1);
    const changesOf = ['created', 'enabled:production', 'disabled:production', 'archived'];
    const events = Array.from({ length: 2 * 24 * 60 }, (_, i): ChangeEvent & { committedAt: number } => {
      const at = start + i * 60_000;
      return {
        id: `e${String(i).padStart(6, '0')}`, type: i % 50 === 0 ? 'project-member-added' : 'feature-changed', createdAt: new Date(at).toISOString(),
        createdBy: 't', project: 'p', featureName: i % 50 === 0 ? undefined : `f${i % 7}`, changes: [changesOf[i % 4] as string], committedAt: at + 1_000,
      };
    });
    let now = start + DAY_MS;
    const visible = () => events.filter((event) => event.committedAt <= now);
    const reader = {
      between: async (from: Date, to: Date) =>
        visible().filter((event) => Date.parse(event.createdAt) >= from.getTime() && Date.parse(event.createdAt) < to.getTime()),
    };
    const activity = new ProjectActivity(reader, () => new Date(now));
    const from = start;
    await activity.of('p', new Date(from), new Date(now + 1));

    // The earlier caller's counts are taken now and counted only after a later call has read
    // (and settled) the minutes past them.
    now += 10 * 60_000;
    const to = now + 1;
    const earlier = await activity.of('p', new Date(from), new Date(to));
    const seen = visible();
    now += 20 * 60_000;
    await activity.of('p', new Date(from), new Date(now + 1));

    expect(earlier.count('events', from, to)).toBe(reference.count(seen, 'events', from, to));
    for (const kind of ['created', 'archived', 'member-added'] as const) {
      expect(earlier.count(kind, from, to), kind).toBe(reference.count(seen, kind, from, to));
    }
    expect(earlier.actionsByDay(from, to)).toEqual(reference.actionsByDay(seen, from, to));
    const firsts = earlier.firstEnablings(production, to - 30 * 60_000, to);
    expect(firsts.length).toBeGreaterThan(0);
    expect(new Map(firsts.map(({ feature, at }) => [feature, at]))).toEqual(reference.firstEnablings(seen, to - 30 * 60_000, to));
  });

  it('no longer holds the tally once past the cap', async () => {
    const start = Date.UTC(2025, 0, 1);
    let now = start + DAY_MS;
    const reader = { between: async () => [] as ChangeEvent[] };
    const activity = new ProjectActivity(reader, () => new Date(now));
    const internals = activity as unknown as { tallied: number; projects: Map<string, unknown> };
    await activity.of('p', new Date(start), new Date(now + 1));
    internals.projects.set('p', {});
    internals.tallied = MAX_TALLIED_EVENTS + 1;
    now += 60_000;
    await activity.of('p', new Date(start), new Date(now + 1));
    expect(internals.projects.size).toBe(0);
  });

  it('counts an event its reader found committed after it settled', async () => {
    const start = Date.UTC(2025, 0, 1);
    const events: Array<ChangeEvent & { committedAt: number }> = Array.from({ length: 24 * 60 }, (_, i) => {
      const at = start + i * 60_000;
      return { id: `e${String(i).padStart(6, '0')}`, type: 'feature-changed', createdAt: new Date(at).toISOString(), createdBy: 't', project: 'p', featureName: `f${i % 5}`, changes: ['created'], committedAt: at + 1_000 };
    });
    let now = start + 20 * 60 * 60_000;
    // Created half an hour before the first call, committed (and found by the reader) after it.
    const lateAt = now - 30 * 60_000 + 30_000;
    events.push({ id: 'late', type: 'feature-changed', createdAt: new Date(lateAt).toISOString(), createdBy: 't', project: 'p', featureName: 'f9', changes: ['created'], committedAt: now + 60_000 });
    events.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    let lateCommits = 0;
    const visible = () => events.filter((event) => event.committedAt <= now);
    const reader = {
      between: async (from: Date, to: Date) =>
        visible().filter((event) => Date.parse(event.createdAt) >= from.getTime() && Date.parse(event.createdAt) < to.getTime()),
      lateCommitsFound: () => lateCommits,
    };
    const activity = new ProjectActivity(reader, () => new Date(now));
    await activity.of('p', new Date(start), new Date(now + 1));

    now += 2 * 60_000;
    lateCommits += 1;
    const counts = await activity.of('p', new Date(start), new Date(now + 1));
    expect(counts.count('created', start, now + 1)).toBe(reference.count(visible(), 'created', start, now + 1));
    expect(counts.count('created', lateAt, lateAt + 1)).toBe(1);
  });
});
