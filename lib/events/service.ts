import { createHash } from 'node:crypto';
import { matchesEquality, type Filter } from '../http/query-filters.js';
import type { ChangeEvent } from './model.js';
import type { EventReader } from './store.js';
import { unleashEventCount, unleashEventKeys, unleashEvents, type UnleashEvent, type UnleashEventKey } from './wire.js';

type Equality = Filter<'IS' | 'IS_ANY_OF'>;

/** An event search, parsed (lib/events/schemas.ts). */
export interface EventSearch {
  query?: string | undefined;
  id?: Equality | undefined;
  groupId?: Equality | undefined;
  feature?: Equality | undefined;
  project?: Equality | undefined;
  type?: Equality | undefined;
  createdBy?: Equality | undefined;
  environment?: Equality | undefined;
  /** Midnight UTC of the first day. */
  from?: Date | undefined;
  /** Midnight UTC of the last day, which is included. */
  to?: Date | undefined;
  offset: number;
  limit: number;
}

/** How many months back from its last day a search by time reads at most. */
export const EVENT_SEARCH_MONTHS = 12;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The window of a search by time that names no first day: the month the admin UI asks for by default. */
const DEFAULT_WINDOW_MS = 31 * DAY_MS;
/** Unleash's deprecated per-feature list holds the newest 50. */
const FEATURE_EVENTS_PAGE = 50;

/**
 * The event log (Unleash's event search), read from the change events the stores record with
 * each change. A search naming features reads each feature's own events (the `eventsByFeature`
 * index, all its history unless `from` says otherwise); any other search reads the months of
 * its time window only, at most EVENT_SEARCH_MONTHS of them. The rest of the filters, the order
 * (newest first) and the page apply to what was read, so `total` counts every match in the
 * window.
 */
export class EventSearchService {
  constructor(
    private readonly events: EventReader,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async search(search: EventSearch): Promise<{ events: UnleashEvent[]; total: number }> {
    // Newest first; the actions of one recorded change keep the order it lists them in.
    const stored = (await this.read(search)).sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    if (isUnfiltered(search)) return pageOfEvery(stored, search);
    if (search.query === undefined) return pageOfMatches(stored, search);
    const matches = stored.flatMap(unleashEvents).filter((event) => matchesSearch(event, search));
    return { events: matches.slice(search.offset, search.offset + search.limit), total: matches.length };
  }

  /** Unleash's deprecated `/api/admin/events/{featureName}`: the feature's newest events. */
  async ofFeature(featureName: string): Promise<{ events: UnleashEvent[]; total: number }> {
    return this.search({ feature: { operator: 'IS', values: [featureName] }, offset: 0, limit: FEATURE_EVENTS_PAGE });
  }

  /**
   * Who made the events of the last EVENT_SEARCH_MONTHS months, for the event log's "Created by"
   * filter. Unleash lists users by id; an event here names its person or token, so each name
   * gets a number of its own (creatorId), which the search's `createdBy` accepts as it accepts the name.
   */
  async creators(): Promise<Array<{ id: number; name: string }>> {
    const now = this.now().getTime();
    const to = new Date(now + 1);
    const names = new Set((await this.events.between(new Date(earliestMonthBefore(to)), to)).map((event) => event.createdBy));
    return [...names].sort().map((name) => ({ id: creatorId(name), name }));
  }

  private async read(search: EventSearch) {
    const now = this.now().getTime();
    // No event is recorded later than now (a day's leeway for clocks that differ), so a `to`
    // past it reads nothing more and is brought back to it.
    const to = new Date(Math.min(search.to ? search.to.getTime() + DAY_MS : now + 1, now + DAY_MS));
    if (search.feature) {
      const from = search.from ?? new Date(0);
      const names = [...new Set(search.feature.values)];
      return (await Promise.all(names.map((name) => this.events.ofFeature(name, from, to)))).flat();
    }
    const from = search.from ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
    return this.events.between(new Date(Math.max(from.getTime(), earliestMonthBefore(to))), to);
  }
}

/**
 * Events are kept by month, one Query each (more for a month of more than a page), so a window
 * reaching back to year 1 would read some 24,000 empty months one after another. A search by
 * time reads the EVENT_SEARCH_MONTHS months up to its last day at most; older events are found
 * with an earlier `to`, or by naming their feature (one Query of its own log, whatever the dates).
 */
function earliestMonthBefore(to: Date): number {
  const last = new Date(to.getTime() - 1);
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  return new Date(0).setUTCFullYear(last.getUTCFullYear(), last.getUTCMonth() - (EVENT_SEARCH_MONTHS - 1), 1);
}

/** A search that names nothing but its window and page (the admin UI's event log as it opens): every event in the window matches. */
function isUnfiltered(search: EventSearch): boolean {
  return search.query === undefined && !search.id && !search.groupId && !search.feature && !search.project
    && !search.type && !search.createdBy && !search.environment;
}

/**
 * The page of an unfiltered search and its total, from the stored events newest first: the
 * total counts each event's actions without making them, and only the page's events are made,
 * where making all of them (ten thousand in the UI benchmark's month, each with its summary)
 * was most of the work of every refresh of the event log.
 */
function pageOfEvery(stored: readonly ChangeEvent[], { offset, limit }: EventSearch): { events: UnleashEvent[]; total: number } {
  const events: UnleashEvent[] = [];
  let total = 0;
  for (const event of stored) {
    const actions = unleashEventCount(event);
    if (events.length < limit && total + actions > offset) {
      events.push(...unleashEvents(event).slice(Math.max(0, offset - total)).slice(0, limit - events.length));
    }
    total += actions;
  }
  return { events, total };
}

/**
 * The page of a search that names no text, and its total: each stored event's actions are
 * matched by their id, type and environment with the event's own project, feature and creator,
 * and only the page's events are made whole. The text filter matches summaries, so a search
 * with one makes every event.
 */
function pageOfMatches(stored: readonly ChangeEvent[], search: EventSearch): { events: UnleashEvent[]; total: number } {
  const events: UnleashEvent[] = [];
  let total = 0;
  for (const event of stored) {
    if (!matchesEvent(event, search)) continue;
    const keys = keysOf(event);
    for (let index = 0; index < keys.length; index += 1) {
      if (!matchesKey(keys[index] as UnleashEventKey, search)) continue;
      if (total >= search.offset && events.length < search.limit) events.push(unleashEvents(event)[index] as UnleashEvent);
      total += 1;
    }
  }
  return { events, total };
}

/**
 * Each stored event's keys, made once: events never change once written, and a container keeps
 * a month's events, so the dashboard's refreshes match the same objects again.
 */
const eventKeys = new WeakMap<ChangeEvent, UnleashEventKey[]>();

function keysOf(event: ChangeEvent): UnleashEventKey[] {
  let keys = eventKeys.get(event);
  if (!keys) {
    keys = unleashEventKeys(event);
    eventKeys.set(event, keys);
  }
  return keys;
}

/** The filters every action of `event` shares: its project, feature and creator. */
function matchesEvent(event: ChangeEvent, search: EventSearch): boolean {
  return !search.groupId
    && matchesEquality(search.feature, event.featureName)
    && matchesEquality(search.project, event.project)
    && (matchesEquality(search.createdBy, event.createdBy) || matchesEquality(search.createdBy, String(creatorIdOf(event.createdBy))));
}

/** The filters that tell one action from another: id, type and environment. */
function matchesKey(key: UnleashEventKey, search: EventSearch): boolean {
  return matchesEquality(search.id, key.id) && matchesEquality(search.type, key.type) && matchesEquality(search.environment, key.environment ?? undefined);
}

function matchesSearch(event: UnleashEvent, search: EventSearch): boolean {
  if (search.groupId) return false;
  return matchesEquality(search.id, event.id)
    && matchesEquality(search.feature, event.featureName ?? undefined)
    && matchesEquality(search.project, event.project ?? undefined)
    && matchesEquality(search.type, event.type)
    && (matchesEquality(search.createdBy, event.createdBy) || matchesEquality(search.createdBy, String(creatorIdOf(event.createdBy))))
    && matchesEquality(search.environment, event.environment ?? undefined)
    && (search.query === undefined || [event.type, event.createdBy, event.featureName, event.project, event.environment, event.summary]
      .some((text) => text?.toLowerCase().includes(search.query as string)));
}

/** Creators' numbers by name: a search by creator matches every event of its window, a digest each. */
const creatorIds = new Map<string, number>();
/** Names kept at most; past it the map starts again (a few names make most events). */
const CREATOR_IDS_KEPT = 10_000;

function creatorIdOf(name: string): number {
  let id = creatorIds.get(name);
  if (id === undefined) {
    if (creatorIds.size >= CREATOR_IDS_KEPT) creatorIds.clear();
    id = creatorId(name);
    creatorIds.set(name, id);
  }
  return id;
}

/** A creator's number: the same for the same name on every container, a positive 31-bit integer as Unleash's user ids are. */
export function creatorId(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0) >>> 1;
}
