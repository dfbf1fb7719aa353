import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';
import type { ClientSnapshot } from './payload.js';

/**
 * A process's snapshot of every feature and segment (feature-snapshots.ts), numbered, with the
 * steps that led to it: a scope's payload built from an earlier snapshot catches up by them, and
 * the delta API (delta.ts) tells an SDK what they changed.
 */
export interface VersionedSnapshot extends ClientSnapshot {
  version: number;
  /** The revision read it answers (its features may be newer, never older: ADR 16). */
  revision: number;
  /** That read's revision shards: where the change log resumes from (ADR 16), and what a stored snapshot keeps (ADR 20). */
  shards: ReadonlyMap<string, number>;
  /** The latest steps, oldest first; a whole read starts the list again. */
  steps: readonly SnapshotStep[];
}

export interface SnapshotStep {
  from: number;
  to: number;
  /** The revision of snapshot `from`. */
  fromRevision: number;
  names: readonly string[];
  segments: boolean;
  /** What snapshot `from` held of each of `names` it had: whether an SDK of a scope could hold it. */
  before: ReadonlyMap<string, FeatureFacts>;
  /** Snapshot `from`'s segments, when the step changed them. */
  segmentsBefore: ReadonlyMap<number, Segment> | undefined;
}

/** Of a feature replaced by a step: its project, and per environment the segments its enabled strategies refer to. */
export interface FeatureFacts {
  project: string;
  segments: ReadonlyMap<string, readonly number[]>;
}

export function factsOf(feature: Feature): FeatureFacts {
  const segments = new Map<string, number[]>();
  for (const [environment, state] of Object.entries(feature.environments)) {
    const ids = state.strategies.flatMap((strategy) => (strategy.disabled ? [] : strategy.segments));
    if (ids.length > 0) segments.set(environment, ids);
  }
  return { project: feature.project, segments };
}

/** What changed from snapshot `version` to `snapshot`, or undefined when its steps do not reach back to it. */
export function stepsSince(snapshot: VersionedSnapshot, version: number): { names: Set<string>; segments: boolean } | undefined {
  const names = new Set<string>();
  let segments = false;
  let at = snapshot.version;
  for (let i = snapshot.steps.length - 1; at !== version; i -= 1) {
    const step = snapshot.steps[i];
    if (!step || step.to !== at) return undefined;
    for (const name of step.names) names.add(name);
    segments ||= step.segments;
    at = step.from;
  }
  return { names, segments };
}

/** What changed between an SDK's revision and a snapshot, gathered from the snapshot's steps. */
export interface ChangesSince {
  names: ReadonlySet<string>;
  /** For each changed feature, what the snapshots from the SDK's revision on held of it (oldest first). */
  before: ReadonlyMap<string, readonly FeatureFacts[]>;
  /** The segments before the first step that changed them, when one did. */
  segmentsBefore: ReadonlyMap<number, Segment> | undefined;
  /**
   * True when the SDK's revision is one a snapshot of this container had: the SDK holds what that
   * snapshot held. False when it falls inside a step: the names then also hold changes the SDK
   * already has, and a feature may have come and gone between the snapshots unseen here.
   */
  exact: boolean;
}

/**
 * The steps from `revision` to `snapshot`, or undefined when they do not reach back that far
 * (a whole read since, or more steps than are remembered): the SDK is then sent everything.
 */
export function changesSince(snapshot: VersionedSnapshot, revision: number): ChangesSince | undefined {
  const taken: SnapshotStep[] = [];
  let at = snapshot.version;
  let exact = false;
  for (let i = snapshot.steps.length - 1; ; i -= 1) {
    const step = snapshot.steps[i];
    if (!step || step.to !== at) return undefined;
    taken.push(step);
    if (step.fromRevision <= revision) {
      exact = step.fromRevision === revision;
      break;
    }
    at = step.from;
  }
  taken.reverse();
  const names = new Set<string>();
  const before = new Map<string, FeatureFacts[]>();
  let segmentsBefore: ReadonlyMap<number, Segment> | undefined;
  for (const step of taken) {
    for (const name of step.names) names.add(name);
    for (const [name, facts] of step.before) {
      const known = before.get(name);
      if (known) known.push(facts);
      else before.set(name, [facts]);
    }
    segmentsBefore ??= step.segmentsBefore;
  }
  return { names, before, segmentsBefore, exact };
}
