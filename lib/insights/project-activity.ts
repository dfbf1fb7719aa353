import type { ChangeEvent } from '../events/model.js';
import { SETTLE_MS } from '../events/settled-months.js';
import type { EventReader } from '../events/store.js';
import { unleashEventCount } from '../events/wire.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Events tallied per container at most: past that, each call counts the events it reads, as before. */
export const MAX_TALLIED_EVENTS = 500_000;

/** What the project pages count of one project's change events. */
export type CountedKind = 'events' | 'created' | 'archived' | 'member-added';

/** A production enabling: the first time a feature was switched on in a production environment within a window. */
export interface ProductionEnabling {
  feature: string;
  at: number;
}

/** One project's change events of a window, counted: what the status and the statistics ask of them. */
export interface ProjectEventCounts {
  /** Events (one each, not per action) of `kind` with from <= createdAt < to (epoch ms). */
  count(kind: CountedKind, from: number, to: number): number;
  /** Unleash's actions of [from, to) per UTC day (an event of several changes is several actions), oldest day first, days without any left out. */
  actionsByDay(from: number, to: number): Array<{ date: string; count: number }>;
  /** Each feature's first enabling in one of `production` within [from, to), oldest first. */
  firstEnablings(production: ReadonlySet<string>, from: number, to: number): ProductionEnabling[];
}

/** Sorted times of one kind of event, appended in order. */
class Times {
  readonly at: number[] = [];

  /** How many of them fall in [from, to). */
  between(from: number, to: number): number {
    return Math.max(0, lowerBound(this.at, to) - lowerBound(this.at, from));
  }
}

/** One project's events of the tallied span, by what is counted of them. */
class ProjectTally {
  readonly kinds: Record<CountedKind, Times> = { events: new Times(), created: new Times(), archived: new Times(), 'member-added': new Times() };
  /** `actionsBefore[i]`: the actions of the first i events (`kinds.events`), so any span's actions are a difference. */
  readonly actionsBefore: number[] = [0];
  readonly actionsByDay = new Map<string, number>();
  /** Per environment and feature, when events enabled the feature there, oldest first. */
  readonly enablings = new Map<string, Map<string, number[]>>();

  /** `event` must be no older than any added before it. */
  add(event: ChangeEvent, at: number): void {
    this.kinds.events.at.push(at);
    const actions = unleashEventCount(event);
    this.actionsBefore.push((this.actionsBefore.at(-1) as number) + actions);
    const day = event.createdAt.slice(0, 10);
    this.actionsByDay.set(day, (this.actionsByDay.get(day) ?? 0) + actions);
    if (event.changes?.includes('created')) this.kinds.created.at.push(at);
    if (event.changes?.includes('archived')) this.kinds.archived.at.push(at);
    if (event.type === 'project-member-added') this.kinds['member-added'].at.push(at);
    if (!event.featureName) return;
    for (const change of event.changes ?? []) {
      if (!change.startsWith('enabled:')) continue;
      const environment = change.slice('enabled:'.length);
      let features = this.enablings.get(environment);
      if (!features) this.enablings.set(environment, (features = new Map()));
      const times = features.get(event.featureName);
      if (times) times.push(at);
      else features.set(event.featureName, [at]);
    }
  }

  /** The actions of the events in [from, to). */
  actionsBetween(from: number, to: number): number {
    const times = this.kinds.events.at;
    return (this.actionsBefore[lowerBound(times, to)] as number) - (this.actionsBefore[lowerBound(times, from)] as number);
  }
}

/**
 * Every project's change events counted once per container: the settled events (older than
 * SETTLE_MS, which no later commit can join, lib/events/settled-months.ts) are tallied as they
 * are first read, per project and kind as sorted times, actions per day and enablings per
 * environment and feature; each call then reads only what is past them (the reader answers
 * from what it keeps once nothing changed) and counts a window by binary search, its days by the
 * days that have events, and its first production enablings by one search per feature enabled
 * there. So a project's status and header cost, once a container has read the span, work in
 * proportion to their answers (days, features) and the events of the last minutes, not to the
 * year's events. A window that starts before the tallied span is read and tallied again from
 * its start, once; so is the span when the reader found an event committed after its createdAt
 * had settled (ADR 26's counters tell it), which a read from where the span ends would miss.
 */
export class ProjectActivity {
  private readonly projects = new Map<string, ProjectTally>();
  /** The tallied span: every settled event of [coveredFrom, settledBefore), or nothing yet. */
  private span: { coveredFrom: number; settledBefore: number; lateCommitsSeen: number } | undefined;
  private tallied = 0;
  /** One read at a time: a call waits for the one before it, then reads only what is past it. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly reader: Pick<EventReader, 'between'> & { lateCommitsFound?: () => number },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The project's events of [from, to) counted, as of a read made by the call; `to` no later than the clock's now plus a moment. */
  async of(projectId: string, from: Date, to: Date): Promise<ProjectEventCounts> {
    const read = this.turn.catch(() => undefined).then(() => this.readPast(from.getTime(), to));
    this.turn = read;
    const fresh = await read;
    if (!fresh) {
      // Past the cap: the window's events, counted for this call alone.
      return countsOf(projectId, await this.reader.between(from, to));
    }
    const settled = this.projects.get(projectId) ?? new ProjectTally();
    // The tally keeps growing under later calls while this caller still counts (it may await
    // more first): its part is cut where this read's fresh events begin, so the events a later
    // call settles are counted once, from the fresh part, as a call alone would count them.
    const cut = fresh.settledBefore;
    return combined([{ tally: settled, before: cut }, { tally: tallyOf(projectId, fresh.events), from: cut }]);
  }

  /**
   * Tallies what settled since the last call (and the span before it that `from` asks for) and
   * answers the events past the tallied span; undefined once the tally would pass the cap.
   */
  private async readPast(from: number, to: Date): Promise<{ events: ChangeEvent[]; settledBefore: number } | undefined> {
    if (this.tallied > MAX_TALLIED_EVENTS) {
      // Counted per call from now on: the tally is not used again, so it is not held either.
      this.projects.clear();
      this.span = undefined;
      return undefined;
    }
    // What `to` leaves out is not read, so it is not tallied either.
    const settledBefore = Math.min(this.now().getTime() - SETTLE_MS, to.getTime());
    const lateCommits = () => this.reader.lateCommitsFound?.() ?? 0;
    const span = this.span;
    if (span && from >= span.coveredFrom && lateCommits() === span.lateCommitsSeen) {
      const since = Math.min(span.settledBefore, to.getTime());
      const events = await this.reader.between(new Date(since), to);
      if (lateCommits() === span.lateCommitsSeen) {
        const settledNow = Math.max(settledBefore, span.settledBefore);
        const past = this.addSettled(events, settledNow);
        this.span = { ...span, settledBefore: settledNow };
        return { events: past, settledBefore: settledNow };
      }
    }
    // The first read, a window older than the span, or an event the reader found committed after
    // it settled (older than where the span reads from): every event of the span, tallied anew.
    const coveredFrom = span ? Math.min(from, span.coveredFrom) : from;
    const lateCommitsSeen = lateCommits();
    const events = await this.reader.between(new Date(coveredFrom), to);
    this.projects.clear();
    this.tallied = 0;
    const past = this.addSettled(events, settledBefore);
    this.span = { coveredFrom, settledBefore, lateCommitsSeen };
    return { events: past, settledBefore };
  }

  /** Adds the events older than `settledBefore` (oldest first, as read) to the tally; answers the rest. */
  private addSettled(events: readonly ChangeEvent[], settledBefore: number): ChangeEvent[] {
    const rest: ChangeEvent[] = [];
    for (const event of events) {
      const at = Date.parse(event.createdAt);
      if (at >= settledBefore || !event.project) {
        if (at >= settledBefore) rest.push(event);
        continue;
      }
      let tally = this.projects.get(event.project);
      if (!tally) this.projects.set(event.project, (tally = new ProjectTally()));
      tally.add(event, at);
      this.tallied += 1;
    }
    return rest;
  }
}

/** One project's events (oldest first, as read) counted for one call. */
export function countsOf(projectId: string, events: readonly ChangeEvent[]): ProjectEventCounts {
  return combined([{ tally: tallyOf(projectId, events) }]);
}

function tallyOf(projectId: string, events: readonly ChangeEvent[]): ProjectTally {
  const tally = new ProjectTally();
  for (const event of events) if (event.project === projectId) tally.add(event, Date.parse(event.createdAt));
  return tally;
}

/** A tally counted only for its events of [from, before) (epoch ms; unbounded where left out). */
interface TallyPart {
  tally: ProjectTally;
  from?: number;
  before?: number;
}

/** The settled tally and the events past it as one, each part within its own bounds. */
function combined(parts: readonly TallyPart[]): ProjectEventCounts {
  const bounded = parts.map(({ tally, from = -Infinity, before = Infinity }) => ({ tally, from, before }));
  return {
    count: (kind, from, to) => bounded.reduce((sum, part) => sum + part.tally.kinds[kind].between(Math.max(from, part.from), Math.min(to, part.before)), 0),
    actionsByDay: (from, to) => {
      const days = new Map<string, number>();
      for (const part of bounded) {
        const partFrom = Math.max(from, part.from);
        const partTo = Math.min(to, part.before);
        if (partFrom >= partTo) continue;
        const fromDay = dayOf(partFrom);
        const toDay = dayOf(partTo - 1);
        for (const [day, actions] of part.tally.actionsByDay) {
          if (day < fromDay || day > toDay) continue;
          // The first and last days may be cut by the window: their actions are counted by time.
          const dayStart = Date.parse(`${day}T00:00:00.000Z`);
          const count = day === fromDay || day === toDay
            ? part.tally.actionsBetween(Math.max(partFrom, dayStart), Math.min(partTo, dayStart + DAY_MS))
            : actions;
          if (count > 0) days.set(day, (days.get(day) ?? 0) + count);
        }
      }
      return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }));
    },
    firstEnablings: (production, from, to) => {
      // Per feature, its first enabling in any production environment: one search per feature.
      const firsts = new Map<string, number>();
      for (const part of bounded) {
        const partFrom = Math.max(from, part.from);
        const partTo = Math.min(to, part.before);
        if (partFrom >= partTo) continue;
        for (const environment of production) {
          for (const [feature, times] of part.tally.enablings.get(environment) ?? []) {
            const at = times[lowerBound(times, partFrom)];
            if (at === undefined || at >= partTo) continue;
            const known = firsts.get(feature);
            if (known === undefined || at < known) firsts.set(feature, at);
          }
        }
      }
      return [...firsts].map(([feature, at]) => ({ feature, at })).sort((a, b) => a.at - b.at);
    },
  };
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The first index whose value is at least `value`, in ascending `sorted`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
