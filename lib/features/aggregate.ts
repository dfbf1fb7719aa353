import { randomUUID } from 'node:crypto';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { hasTimeToWrite, TooLateToWrite } from '../request-deadline.js';
import type { ChangeEvent } from '../events/model.js';
import { featureChanges } from './changes.js';
import type { Feature } from './model.js';
import { stagesAfterWrite } from './rules/lifecycle.js';
import type { CommitOutcome, FeatureCommit, FeatureStore } from './store.js';

/**
 * How often a change is recomputed on fresh data while other writers get there first. A count,
 * not a wall-clock budget: a budget ran out sooner on a slow or loaded machine, so the same
 * contention gave more 409s there. Time is bounded by the request's deadline instead: a
 * commit attempt is not started once too little of it is left (lib/store/late-writes.ts), which
 * ends the loop with a 503 and nothing stored. Retries in one process take turns (`apply`), so
 * a loser mostly waits for its turn rather than spending attempts.
 */
const MAX_ATTEMPTS = 12;
/** Upper bound of the random pause before a retry, so colliding writers spread out. */
const MAX_BACKOFF_MS = 200;

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

  constructor(readonly store: FeatureStore) {}

  /**
   * The first attempt is optimistic. A change that lost a race retries in turn with the other
   * losers of this process, one attempt at a time: many writers in one process (the local
   * server, a burst of tests) then stop colliding with each other, and only writers in other
   * processes can still move a version under them. `actor` is who the change events name.
   */
  async apply<T>(actor: string, change: Change<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const outcome = attempt === 1 ? await this.attempt(change, actor) : await this.inTurn(() => this.attemptInTime(change, actor));
      if (outcome.ok) return outcome.result;
      if (outcome.refusal.reason !== 'version-changed' || attempt >= MAX_ATTEMPTS) throw refusal(outcome.refusal);
      await backoff(attempt);
    }
  }

  private async attempt<T>(change: Change<T>, actor: string): Promise<{ ok: true; result: T } | { ok: false; refusal: Exclude<CommitOutcome, { ok: true }> }> {
    const { commit: asComputed, result } = await change((name) => this.store.get(name));
    if (asComputed.writes.length === 0) return { ok: true, result };
    const commit = withLifecycleStages(asComputed);
    const outcome = await this.store.commit({ ...commit, events: [...(commit.events ?? []), ...changeEvents(commit, actor)] });
    return outcome.ok ? { ok: true, result } : { ok: false, refusal: outcome };
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
