import type { ChangeEvent } from '../events/model.js';
import type { Feature } from './model.js';

/**
 * One atomic change to one or more feature aggregates. Each write names the version it was
 * computed from (`undefined` for a new feature), so a concurrent change makes the whole
 * commit fail instead of being overwritten.
 */
export interface FeatureWrite {
  /** The aggregate as read (undefined when creating). */
  before: Feature | undefined;
  /** The aggregate to store, or `undefined` to delete it. */
  after: Feature | undefined;
}

export interface FeatureCommit {
  writes: FeatureWrite[];
  /**
   * Moves each named project's count of active features in the same transaction. `applyLimit`:
   * the project's feature limit applies (creates and imports; not revive, as in Unleash). The
   * store checks the limit as stored at commit, not as the caller last read it.
   */
  projectFeatureCounts?: Record<string, { delta: number; applyLimit: boolean }>;
  /** Change events, written in the same transaction. */
  events?: ChangeEvent[];
}

/** Why a commit was refused, as the failed condition tells it. */
export type CommitOutcome =
  | { ok: true }
  | { ok: false; reason: 'version-changed' | 'name-taken'; feature: string }
  | { ok: false; reason: 'segment-missing'; segmentId: number }
  | { ok: false; reason: 'strategy-type-missing'; strategyType: string }
  | { ok: false; reason: 'feature-limit' | 'project-missing'; project: string };

/** The feature store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface FeatureStore {
  get(name: string): Promise<Feature | undefined>;
  /** The named features that exist, strongly consistent, in no particular order. */
  getMany(names: readonly string[]): Promise<Feature[]>;
  /** Every feature, archived ones included. */
  listAll(): Promise<Feature[]>;
  /** Every feature of one project, archived ones included, reading only that project's items. */
  listProject(project: string): Promise<Feature[]>;
  /**
   * Applies all writes or none, bumps the SDK revision, and keeps each referenced segment's
   * reference count (a segment in use cannot be deleted; a missing one fails the commit). A
   * custom strategy type a feature starts using must exist, and its usage mark moves, so a
   * delete that checked the type unused meanwhile fails (lib/strategies/service.ts).
   */
  commit(change: FeatureCommit): Promise<CommitOutcome>;
}
