import { randomUUID } from 'node:crypto';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { currentActor } from '../events/actor.js';
import { featureChanges, type ChangeEvent } from '../events/model.js';
import type { Feature } from './model.js';
import type { CommitOutcome, FeatureCommit, FeatureStore } from './store.js';

/** How often a change is recomputed on fresh data when another writer got there first. */
const ATTEMPTS = 12;
/** Upper bound of the random pause before a retry, so colliding writers spread out. */
const MAX_BACKOFF_MS = 100;

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
  constructor(readonly store: FeatureStore) {}

  async apply<T>(change: Change<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const read = (name: string) => this.store.get(name);
      const { commit, result } = await change(read);
      if (commit.writes.length === 0) return result;
      const outcome = await this.store.commit({ ...commit, events: [...(commit.events ?? []), ...changeEvents(commit)] });
      if (outcome.ok) return result;
      if (outcome.reason !== 'version-changed' || attempt >= ATTEMPTS) throw refusal(outcome);
      await backoff(attempt);
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

/** Full jitter: a random pause up to an exponentially growing cap. */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(MAX_BACKOFF_MS, 2 ** attempt * 2);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}

/** One event per feature written, listing what changed; writes that change nothing leave none. */
function changeEvents(commit: FeatureCommit): ChangeEvent[] {
  const createdAt = new Date().toISOString();
  const createdBy = currentActor();
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
      return new Conflict(`A toggle with the name ${outcome.feature} already exists`);
    case 'segment-missing':
      return new ValidationFailed(`segments: the segment with id ${outcome.segmentId} does not exist`);
    case 'feature-limit':
      return new ValidationFailed(`You have reached the maximum number of feature toggles for the project ${outcome.project}.`);
    case 'project-missing':
      return new NotFound(`No project found with id ${outcome.project}`);
  }
}
