import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import { unleashEvents } from '../../lib/events/wire.js';
import { NO_FAVOURITES } from '../../lib/favourites/model.js';
import type { UserCaller } from '../../lib/http/caller.js';
import type { PersonalDashboardPorts } from '../../lib/personal-dashboard/ports.js';
import { PersonalDashboardService } from '../../lib/personal-dashboard/service.js';
import type { Project } from '../../lib/projects/model.js';
import { ROOT_ROLE } from '../../lib/roles/model.js';

/**
 * The project card lists the project's ten newest actions. A container that keeps a month of
 * events hands it over as one page of every event in it, so the card makes actions only of the
 * events it lists (counted by reads of `createdBy`, which making an action reads and the
 * project filter does not), and lists what making every event's actions and keeping the first
 * ten would.
 */
describe("the personal dashboard's project card", () => {
  const clock = new Date('2001-03-20T12:00:00.000Z');
  const caller: UserCaller = { tokenName: 'viewer', type: 'admin', environment: '*', projects: ['*'], userId: 4242, rootRole: ROOT_ROLE.Viewer };
  const project = { id: 'default', name: 'Default', environments: ['development'], defaultStrategies: {}, createdAt: clock.toISOString(), updatedAt: null } as unknown as Project;

  /** Events newest first, a second apart; every third names two changes, every fourth is another project's. */
  function monthOfEvents(count: number): ChangeEvent[] {
    return Array.from({ length: count }, (_, index) => ({
      id: `event-${String(count - index).padStart(6, '0')}`,
      type: 'feature-changed',
      createdAt: new Date(clock.getTime() - 1000 - index * 1000).toISOString(),
      createdBy: 'seed',
      project: index % 4 === 3 ? 'other' : 'default',
      featureName: `flag-${index % 7}`,
      changes: index % 3 === 0 ? ['enabled:development', 'strategies:development'] : ['disabled:development'],
    }));
  }

  /** Each event wrapped so that making its actions (which reads `createdBy`) is counted. */
  function counted(events: ChangeEvent[]) {
    const made = new Set<string>();
    const wrapped = events.map((event) => {
      const copy = { ...event };
      Object.defineProperty(copy, 'createdBy', { enumerable: true, get: () => (made.add(event.id), event.createdBy) });
      return copy;
    });
    return { wrapped, made };
  }

  function service(pages: ChangeEvent[][]) {
    const ports: PersonalDashboardPorts = {
      project: async (id) => (id === project.id ? project : undefined),
      everyFeature: async () => [],
      favouritesOf: async () => NO_FAVOURITES,
      users: async () => [],
      newestEvents: async function* () {
        for (const page of pages) yield page;
      },
      lastSeen: { forFeature: async () => ({}), forAll: async () => new Map(), forFeatures: async () => new Map() },
      projectHealthHistory: async () => [],
    };
    return new PersonalDashboardService(ports, () => clock);
  }

  /** What the card listed before it stopped early: every event's actions made, the first ten kept. */
  const everyAction = (events: ChangeEvent[]) => events
    .filter((event) => event.project === 'default')
    .flatMap((event) => unleashEvents(event).sort((a, b) => (a.id < b.id ? 1 : -1)))
    .slice(0, 10)
    .map(({ id, summary, createdAt }) => ({ id, summary, createdAt }));

  it('makes actions of the events it lists only, out of a kept month of 10,000 events in one page', async () => {
    const events = monthOfEvents(10_000);
    const { wrapped, made } = counted(events);
    const card = await service([wrapped]).projectDetails(caller, 'default');
    const listed = card.latestEvents.map(({ id, summary, createdAt }) => ({ id, summary, createdAt }));
    expect(listed).toEqual(everyAction(events));
    expect(listed).toHaveLength(10);
    // Ten actions: of the project's first events, the ones naming two changes give two each.
    const needed = new Set(listed.map((event) => event.id.replace(/-\d$/, '')));
    expect([...made].sort()).toEqual([...needed].sort());
    expect(made.size).toBeLessThan(10);
  });

  it('reads on to the next page while it has fewer than ten, and stops inside the page that completes them', async () => {
    const events = monthOfEvents(42);
    const pages = [events.slice(0, 3), events.slice(3, 6), events.slice(6)];
    const { wrapped, made } = counted(events);
    const wrappedPages = [wrapped.slice(0, 3), wrapped.slice(3, 6), wrapped.slice(6)];
    const card = await service(wrappedPages).projectDetails(caller, 'default');
    expect(card.latestEvents.map(({ id, summary, createdAt }) => ({ id, summary, createdAt }))).toEqual(everyAction(pages.flat()));
    // The last page's events after the tenth action are never made into actions.
    const lastMade = wrapped.findLastIndex((event) => made.has(event.id));
    expect(lastMade).toBeGreaterThanOrEqual(6);
    expect(lastMade).toBeLessThan(wrapped.length - 1);
  });
});
