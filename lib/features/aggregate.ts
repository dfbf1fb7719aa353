import { randomUUID } from 'node:crypto';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { hasTimeToWrite, noteWriteLanded, timeLeft, TooLateToWrite } from '../request-deadline.js';
import type { ChangeEvent } from '../events/model.js';
import { WRITE_BUDGET_MS } from '../time-budget.js';
import { featureChanges } from './changes.js';
import type { Feature } from './model.js';
import { stagesAfterWrite } from './rules/lifecycle.js';
import type { CommitOutcome, FeatureCommit, FeatureStore, FeatureWrite } from './store.js';

/**
 * How often a change is recomputed on fresh data while other writers get there first. A count,
 * not a wall-clock budget: a budget ran out sooner on a slow or loaded machine, so the same
 * contention gave more 409s there. Time is bounded by the request's deadline instead: a
 * commit attempt is not started once too little of it is left (lib/store/late-writes.ts), which
 * ends the loop with a 503 and nothing stored. Retries in one process take turns and commit
 * together (`apply`), so a loser mostly waits for its turn rather than spending attempts.
 */
const MAX_ATTEMPTS = 12;
/** Upper bound of the random pause before a retry, so colliding writers spread out. */
const MAX_BACKOFF_MS = 200;
/**
 * Most retries one transaction carries. Each brings its change events, so this keeps a group's
 * transaction far below DynamoDB's 100 items.
 */
const MAX_GROUP = 10;

/**
 * A change to one or more aggregates: given what was read, answer the commit (or throw a
 * domain error). It is rerun on fresh data when a concurrent change moved a version.
 */
export type Change<T> = (read: (name: string) => Promise<Feature | undefined>) => Promise<{ commit: FeatureCommit; result: T }>;

/**
 * Runs changes with optimistic concurrency: read, compute, commit conditionally on the
 * versions read; on a version conflict start again. No update is ever lost, and no change is
 * half applied, because each commit is one DynamoDB transaction.
 */
export class FeatureAggregates {
  /** The end of the queue of retries in this process (see `apply`). */
  private retryTurn: Promise<void> = Promise.resolve();
  /** Retries waiting for the next group commit, and whether one is under way. */
  private readonly waiting: Array<Retry<any>> = [];
  private groupRunning = false;

  constructor(readonly store: FeatureStore) {}

  /**
   * The first attempt is optimistic. The changes that lost a race retry together: whichever
   * are waiting when the previous group is done are computed one after the other on the same
   * fresh read, each seeing the ones before it, and committed in one transaction with every
   * change's own events, as if they had committed one after the other (`commitTogether`).
   * Retried one at a time instead, N writers of one flag took N read-and-commit rounds in a
   * row, which on a slow or loaded store outlasted the time a request may start a write in
   * (8 concurrent tags on one flag answered 503 "ran out of time"). Only writers in other
   * processes can still move a version under a group. `actor` is who the change events name.
   */
  async apply<T>(actor: string, change: Change<T>): Promise<T> {
    const first = await this.attempt(change, actor);
    if (first.ok) return first.result;
    if (first.refusal.reason !== 'version-changed') throw refusal(first.refusal);
    for (let attempt = 2; ; attempt += 1) {
      await backoff(attempt - 1);
      const outcome = await this.retryTogether(change, actor);
      if (outcome.kind === 'committed') {
        // The group's transaction ran in another request's context: this one's write landed too.
        if (outcome.wrote) noteWriteLanded();
        return outcome.result;
      }
      if (outcome.kind === 'failed') throw outcome.error;
      if (outcome.kind === 'alone') {
        // A group refused for another reason than a moved version (a deleted segment, a missing
        // strategy type): each of its changes runs alone, so the refusal reaches the right one.
        const solo = await this.inTurn(() => this.attemptInTime(change, actor));
        if (solo.ok) return solo.result;
        if (solo.refusal.reason !== 'version-changed') throw refusal(solo.refusal);
        if (attempt >= MAX_ATTEMPTS) throw refusal(solo.refusal);
      } else if (attempt >= MAX_ATTEMPTS) {
        throw refusal(outcome.refusal);
      }
    }
  }

  /**
   * Waits for the next group commit that takes this change. The group is run by the waiting
   * request with the least time left, in its own async context: the store's refusal to start a
   * write too late (lib/store/late-writes.ts) then holds for every request in the group.
   */
  private retryTogether<T>(change: Change<T>, actor: string): Promise<RetryOutcome<T>> {
    const left = timeLeft();
    const retry: Retry<T> = { change, actor, deadline: left === undefined ? Infinity : Date.now() + left, ...deferredOutcome<T>() };
    retry.chosen.then((group) => this.runGroup(group));
    this.waiting.push(retry);
    this.startGroup();
    return retry.outcome;
  }

  private startGroup(): void {
    if (this.groupRunning) return;
    // A request that can no longer start a write gives up on its own, rather than run the group
    // and refuse every other change in it.
    const now = Date.now();
    const inTime = this.waiting.splice(0).filter((retry) => {
      if (retry.deadline - now >= WRITE_BUDGET_MS) return true;
      retry.settle({ kind: 'failed', error: new TooLateToWrite() });
      return false;
    });
    const group = inTime.splice(0, MAX_GROUP);
    this.waiting.push(...inTime);
    if (group.length === 0) return;
    this.groupRunning = true;
    const runner = group.reduce((soonest, retry) => (retry.deadline < soonest.deadline ? retry : soonest));
    runner.choose(group);
  }

  private async runGroup(group: Array<Retry<any>>): Promise<void> {
    try {
      await this.inTurn(() => this.commitTogether(group));
    } catch (error) {
      for (const retry of group) retry.settle({ kind: 'failed', error });
    } finally {
      this.groupRunning = false;
      this.startGroup();
    }
  }

  /**
   * Computes each change of the group on what the ones before it wrote, then commits them all in
   * one transaction: each write conditioned on the version first read, each change with its own
   * events. A change that needs more than versioned updates (a create, a delete, a project's
   * feature count) is not grouped and runs alone. Every answer waits for the commit, since each
   * was computed on writes that are only real once it succeeds.
   */
  private async commitTogether(group: Array<Retry<any>>): Promise<void> {
    if (!hasTimeToWrite()) throw new TooLateToWrite();
    const written = new Map<string, Feature | undefined>();
    const read = async (name: string) => (written.has(name) ? written.get(name) : this.store.get(name));
    const merged = new Map<string, FeatureWrite>();
    const events: ChangeEvent[] = [];
    const answers: Array<{ retry: Retry<any>; answer: RetryOutcome<any> }> = [];
    for (const retry of group) {
      let computed: Awaited<ReturnType<Change<unknown>>>;
      try {
        computed = await retry.change(read);
      } catch (error) {
        answers.push({ retry, answer: { kind: 'failed', error } });
        continue;
      }
      if (computed.commit.writes.length === 0) {
        answers.push({ retry, answer: { kind: 'committed', result: computed.result, wrote: false } });
        continue;
      }
      if (!groupable(computed.commit)) {
        retry.settle({ kind: 'alone' });
        continue;
      }
      const commit = this.withEvents(computed.commit, retry.actor);
      for (const write of commit.writes) {
        const name = (write.after as Feature).name;
        merged.set(name, { before: merged.get(name)?.before ?? write.before, after: write.after });
        written.set(name, write.after);
      }
      events.push(...(commit.events ?? []));
      answers.push({ retry, answer: { kind: 'committed', result: computed.result, wrote: true } });
    }
    const outcome = merged.size === 0 ? ({ ok: true } as const) : await this.store.commit({ writes: [...merged.values()], events });
    for (const { retry, answer } of answers) {
      if (outcome.ok) retry.settle(answer);
      else if (outcome.reason === 'version-changed') retry.settle({ kind: 'again', refusal: outcome });
      else retry.settle({ kind: 'alone' });
    }
  }

  private async attempt<T>(change: Change<T>, actor: string): Promise<{ ok: true; result: T } | { ok: false; refusal: Exclude<CommitOutcome, { ok: true }> }> {
    const { commit: asComputed, result } = await change((name) => this.store.get(name));
    if (asComputed.writes.length === 0) return { ok: true, result };
    const outcome = await this.store.commit(this.withEvents(asComputed, actor));
    return outcome.ok ? { ok: true, result } : { ok: false, refusal: outcome };
  }

  /** The commit as stored: lifecycle stages moved, and one change event per feature it changes. */
  private withEvents(asComputed: FeatureCommit, actor: string): FeatureCommit {
    const commit = withLifecycleStages(asComputed);
    return { ...commit, events: [...(commit.events ?? []), ...changeEvents(commit, actor)] };
  }

  /**
   * A retry that could no longer write in time gives up before reading: the store would refuse
   * its commit anyway, and the other writers waiting their turn get it sooner.
   */
  private attemptInTime<T>(change: Change<T>, actor: string) {
    if (!hasTimeToWrite()) throw new TooLateToWrite();
    return this.attempt(change, actor);
  }

  private async inTurn<T>(step: () => Promise<T>): Promise<T> {
    const previous = this.retryTurn;
    let release: () => void = () => undefined;
    this.retryTurn = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      return await step();
    } finally {
      release();
    }
  }

  /** Reads one feature of a project that is not archived, with Unleash's 404 and 400 wording. */
  async activeFeature(projectId: string, name: string, read = (n: string) => this.store.get(n)): Promise<Feature> {
    const feature = await featureInProject(projectId, name, read);
    if (feature.archived) throw new ValidationFailed('Cannot perform this operation on archived features');
    return feature;
  }
}

export async function featureInProject(
  projectId: string,
  name: string,
  read: (name: string) => Promise<Feature | undefined>,
): Promise<Feature> {
  const feature = await read(name);
  if (!feature) throw new NotFound(`There's no feature named "${name}" in project "${projectId}".`);
  if (feature.project !== projectId) {
    throw new NotFound(
      `There's no feature named "${name}" in project "${projectId}", but there's a feature with that name in project "${feature.project}".`,
    );
  }
  return feature;
}

/** A write of `after` over `before`, with the version moved on. */
export function replaced(before: Feature, after: Feature): { before: Feature; after: Feature } {
  return { before, after: { ...after, version: before.version + 1 } };
}

/**
 * Every write moves the lifecycle stages its change defines (rules/lifecycle.ts), whichever
 * service or import made it, so no path that creates, archives or revives a flag can miss one.
 */
function withLifecycleStages(commit: FeatureCommit): FeatureCommit {
  const now = new Date().toISOString();
  return {
    ...commit,
    writes: commit.writes.map(({ before, after }) => ({
      before,
      after: after && { ...after, lifecycle: stagesAfterWrite(before, after, now) },
    })),
  };
}

/** A retry waiting for a group commit: chosen to run one, then told how its change went. */
interface Retry<T> {
  change: Change<T>;
  actor: string;
  /** Epoch milliseconds at which its request must have answered; Infinity outside a request. */
  deadline: number;
  chosen: Promise<Array<Retry<any>>>;
  choose: (group: Array<Retry<any>>) => void;
  outcome: Promise<RetryOutcome<T>>;
  settle: (outcome: RetryOutcome<T>) => void;
}

type RetryOutcome<T> =
  | { kind: 'committed'; result: T; wrote: boolean }
  | { kind: 'failed'; error: unknown }
  | { kind: 'again'; refusal: Exclude<CommitOutcome, { ok: true }> }
  | { kind: 'alone' };

function deferredOutcome<T>(): Pick<Retry<T>, 'chosen' | 'choose' | 'outcome' | 'settle'> {
  let choose: Retry<T>['choose'] = () => undefined;
  let settle: Retry<T>['settle'] = () => undefined;
  const chosen = new Promise<Array<Retry<any>>>((resolve) => (choose = resolve));
  const outcome = new Promise<RetryOutcome<T>>((resolve) => (settle = resolve));
  return { chosen, choose, outcome, settle };
}

/**
 * Versioned updates only: a group's merged write keeps the first version read and the last
 * state computed, which says the same as the changes one by one. Creates, deletes and moves of
 * a project's feature count would need their conditions and counts merged too.
 */
function groupable(commit: FeatureCommit): boolean {
  return Object.keys(commit.projectFeatureCounts ?? {}).length === 0 && commit.writes.every(({ before, after }) => before !== undefined && after !== undefined);
}

/** Full jitter: a random pause up to an exponentially growing cap. */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(MAX_BACKOFF_MS, 2 ** attempt * 4);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}

/** One event per feature written, listing what changed; writes that change nothing leave none. */
function changeEvents(commit: FeatureCommit, createdBy: string): ChangeEvent[] {
  const createdAt = new Date().toISOString();
  return commit.writes.flatMap(({ before, after }) => {
    const changes = featureChanges(before, after);
    const feature = (after ?? before) as Feature;
    if (changes.length === 0) return [];
    return [{ id: randomUUID(), type: 'feature-changed', createdAt, createdBy, project: feature.project, featureName: feature.name, changes }];
  });
}

function refusal(outcome: Exclude<CommitOutcome, { ok: true }>): Error {
  switch (outcome.reason) {
    case 'version-changed':
      return new Conflict(`The feature ${outcome.feature} kept changing while this change was applied; try again`);
    case 'name-taken':
      return new Conflict('A flag with that name already exists');
    case 'segment-missing':
      return new ValidationFailed(`segments: the segment with id ${outcome.segmentId} does not exist`);
    case 'strategy-type-missing':
      return new ValidationFailed(`name: Could not find strategy type with name ${outcome.strategyType}`);
    case 'feature-limit':
      return new ValidationFailed(`You have reached the maximum number of feature toggles for the project ${outcome.project}.`);
    case 'project-missing':
      return new NotFound(`No project found with id ${outcome.project}`);
  }
}
