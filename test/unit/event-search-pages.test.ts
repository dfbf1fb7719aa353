import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import { EventSearchService, type EventSearch } from '../../lib/events/service.js';
import type { EventReader } from '../../lib/events/store.js';
import { unleashEvents } from '../../lib/events/wire.js';

/** Events kept in memory, answered as the store answers them: oldest first, by window. */
class EventsInMemory implements EventReader {
  constructor(private readonly events: readonly ChangeEvent[]) {}
  async between(from: Date, to: Date) {
    return this.events.filter((event) => event.createdAt >= from.toISOString() && event.createdAt < to.toISOString())
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
  }
  async ofFeature(featureName: string, from: Date, to: Date) {
    return (await this.between(from, to)).filter((event) => event.featureName === featureName);
  }
  async *newestFirst(from: Date, to: Date) {
    yield (await this.between(from, to)).reverse();
  }
}

/** A seeded sequence, so the shuffle of the events is the same on every run. */
function seeded(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/**
 * The event log as it opens (a window and a page, no filter) counts the events' actions and
 * makes only the page's events: the pages and the total must be what the filtered path gives,
 * every page of it, with changes of several actions falling across page boundaries.
 */
describe('the unfiltered event search', () => {
  const now = new Date('2001-03-20T12:00:00.000Z');
  const random = seeded(29);
  const events: ChangeEvent[] = Array.from({ length: 60 }, (_, index) => {
    const createdAt = new Date(Date.parse('2001-03-01T00:00:00.000Z') + Math.floor(random() * 40) * 3_600_000).toISOString();
    const kind = index % 4;
    if (kind === 0) return { id: `e${index}`, type: 'project-created', createdAt, createdBy: 'seed', project: 'p' };
    const changes = kind === 1 ? ['enabled:development', 'strategies:development', 'variants:production'] : kind === 2 ? [] : ['disabled:development'];
    return { id: `e${index}`, type: 'feature-changed', createdAt, createdBy: 'seed', project: 'p', featureName: `f${index % 7}`, changes };
  }).sort(() => random() - 0.5);
  const service = new EventSearchService(new EventsInMemory(events), () => now);
  const window = { from: new Date('2001-03-01T00:00:00.000Z') };

  it('answers every page and the total as the whole list of actions, newest first, cut into pages', async () => {
    const every = [...events]
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
      .flatMap(unleashEvents);
    expect(every.length).toBeGreaterThan(events.length);

    for (const limit of [1, 2, 7, 25, 200]) {
      for (let offset = 0; offset <= every.length + 1; offset += Math.max(1, Math.floor(limit / 2))) {
        const search: EventSearch = { ...window, offset, limit };
        expect(await service.search(search), `offset ${offset}, limit ${limit}`).toEqual({ events: every.slice(offset, offset + limit), total: every.length });
      }
    }
  });

  it('answers as a search whose filter matches every event does', async () => {
    const everyProject = { operator: 'IS' as const, values: ['p'] };

    const unfiltered = await service.search({ ...window, offset: 10, limit: 25 });
    const filtered = await service.search({ ...window, project: everyProject, offset: 10, limit: 25 });

    expect(unfiltered).toEqual(filtered);
  });
});
