import { describe, expect, it } from 'vitest';
import type { Environment } from '../../lib/environments/model.js';
import type { ChangeEvent } from '../../lib/events/model.js';
import type { Feature } from '../../lib/features/model.js';
import type { ProjectStatsCatalog } from '../../lib/insights/ports.js';
import { projectStats } from '../../lib/insights/project-stats.js';
import { ProjectStatsService } from '../../lib/insights/project-stats-service.js';
import { seededRandom } from '../support/seeded-random.js';

const DAY_MS = 86_400_000;
const now = new Date('2026-03-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
const environments = [
  { name: 'development', type: 'development' },
  { name: 'production', type: 'production' },
  { name: 'live', type: 'production' },
] as Environment[];
const production = new Set(['production', 'live']);

/**
 * A project's history of a year and more, drawn from a seeded generator: features created over
 * 400 days, switched on and off in development and production now and then, some archived, and
 * events of another project about features of the same names.
 */
function history(random: () => number, features: number) {
  const own: Feature[] = [];
  const events: ChangeEvent[] = [];
  let id = 0;
  const event = (featureName: string, age: number, changes: string[], project = 'p') =>
    events.push({ id: `e${(id += 1)}`, type: 'feature-changed', createdAt: daysAgo(age), createdBy: 't', project, featureName, changes });
  for (let i = 0; i < features; i += 1) {
    const name = `f${i}`;
    const age = 1 + random() * 400;
    own.push({ name, project: 'p', createdAt: daysAgo(age), archived: random() < 0.1 } as Feature);
    event(name, age, ['created']);
    for (let moment = age - random() * 40; moment > 0; moment -= 1 + random() * 60) {
      const environment = random() < 0.5 ? 'development' : random() < 0.5 ? 'production' : 'live';
      event(name, moment, [`${random() < 0.7 ? 'enabled' : 'disabled'}:${environment}`]);
    }
    if (random() < 0.2) event(name, random() * age, ['enabled:production'], 'q');
  }
  events.push({ id: 'member', type: 'project-member-added', createdAt: daysAgo(3), createdBy: 't', project: 'p' });
  events.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return { own, events };
}

/** The catalogue over `events`, with every read written down. */
function catalogOf(own: Feature[], events: ChangeEvent[]) {
  const reads: { windows: Array<[string, string]>; features: string[] } = { windows: [], features: [] };
  const between = (list: ChangeEvent[], from: Date, to: Date) =>
    list.filter((event) => event.createdAt >= from.toISOString() && event.createdAt < to.toISOString());
  const catalog: ProjectStatsCatalog = {
    projectFeatures: async () => own,
    environments: async () => environments,
    eventsBetween: async (from, to) => {
      reads.windows.push([from.toISOString(), to.toISOString()]);
      return between(events, from, to);
    },
    featureEventsBetween: async (name, from, to) => {
      reads.features.push(name);
      return between(events.filter((event) => event.featureName === name), from, to);
    },
  };
  return { catalog, reads };
}

/** What the figures are by definition: every event back to the project's oldest feature, read at once. */
function fromWholeHistory(own: Feature[], events: ChangeEvent[]) {
  const since = own.reduce((earliest, feature) => Math.min(earliest, Date.parse(feature.createdAt)), now.getTime() - 60 * DAY_MS);
  return projectStats('p', own, events.filter((event) => Date.parse(event.createdAt) >= since), production, now);
}

describe('project statistics read two months of events', () => {
  it('and answer what the whole history answers, looking up older history only for features first enabled in production lately', async () => {
    const { next } = seededRandom('project history');
    let lookedUp = 0;
    for (let round = 0; round < 20; round += 1) {
      const { own, events } = history(next, 10 + Math.floor(next() * 30));
      const { catalog, reads } = catalogOf(own, events);

      const stats = await new ProjectStatsService(catalog, () => now).forProject('p');

      expect(stats).toEqual(fromWholeHistory(own, events));
      expect(reads.windows).toEqual([[daysAgo(60), now.toISOString()]]);
      expect(reads.features.length).toBeLessThanOrEqual(25);
      lookedUp += reads.features.length;
    }
    // Twenty projects of years-old features switched in production every month or so: some were.
    expect(lookedUp).toBeGreaterThan(0);
  });

  it('tells a re-enabling from a first one: an enabling before both windows keeps a feature out of the average', async () => {
    const own = [
      { name: 'old', project: 'p', createdAt: daysAgo(300), archived: false },
      { name: 'new', project: 'p', createdAt: daysAgo(20), archived: false },
    ] as Feature[];
    const event = (featureName: string, age: number, changes: string[]): ChangeEvent =>
      ({ id: `${featureName}-${age}`, type: 'feature-changed', createdAt: daysAgo(age), createdBy: 't', project: 'p', featureName, changes });
    const events = [
      event('old', 300, ['created']), event('old', 200, ['enabled:production']), event('old', 199, ['disabled:production']),
      event('new', 20, ['created']), event('old', 10, ['enabled:production']), event('new', 5, ['enabled:live']),
    ];
    const { catalog, reads } = catalogOf(own, events);

    const stats = await new ProjectStatsService(catalog, () => now).forProject('p');

    expect(stats.avgTimeToProdCurrentWindow).toBe(15);
    expect(stats).toEqual(fromWholeHistory(own, events));
    expect(reads.features.sort()).toEqual(['new', 'old']);
  });

  it('reads the older months at once when more than 25 features were first enabled in production lately', async () => {
    const own = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, project: 'p', createdAt: daysAgo(100 + i), archived: false })) as Feature[];
    const events = own.flatMap((feature, i): ChangeEvent[] => [
      { id: `c${i}`, type: 'feature-changed', createdAt: feature.createdAt, createdBy: 't', project: 'p', featureName: feature.name, changes: ['created'] },
      // Every third one was on in production before both windows already.
      ...(i % 3 === 0 ? [{ id: `o${i}`, type: 'feature-changed', createdAt: daysAgo(90), createdBy: 't', project: 'p', featureName: feature.name, changes: ['enabled:production'] }] : []),
      { id: `e${i}`, type: 'feature-changed', createdAt: daysAgo(2 + i / 10), createdBy: 't', project: 'p', featureName: feature.name, changes: ['enabled:production'] },
    ]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const { catalog, reads } = catalogOf(own, events);

    const stats = await new ProjectStatsService(catalog, () => now).forProject('p');

    expect(stats).toEqual(fromWholeHistory(own, events));
    expect(stats.avgTimeToProdCurrentWindow).toBeGreaterThan(0);
    expect(reads.features).toEqual([]);
    expect(reads.windows).toEqual([[daysAgo(60), now.toISOString()], [daysAgo(129), daysAgo(60)]]);
  });

  it('reads nothing older than the windows when every feature is younger than them', async () => {
    const own = [{ name: 'young', project: 'p', createdAt: daysAgo(10), archived: false }] as Feature[];
    const events: ChangeEvent[] = [
      { id: 'a', type: 'feature-changed', createdAt: daysAgo(10), createdBy: 't', project: 'p', featureName: 'young', changes: ['created'] },
      { id: 'b', type: 'feature-changed', createdAt: daysAgo(4), createdBy: 't', project: 'p', featureName: 'young', changes: ['enabled:production'] },
    ];
    const { catalog, reads } = catalogOf(own, events);

    const stats = await new ProjectStatsService(catalog, () => now).forProject('p', own);

    expect(stats).toEqual(fromWholeHistory(own, events));
    expect(stats.avgTimeToProdCurrentWindow).toBe(6);
    expect(reads).toEqual({ windows: [[daysAgo(60), now.toISOString()]], features: [] });
  });
});
