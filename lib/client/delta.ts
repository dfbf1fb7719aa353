import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';
import { isServed, segmentIdsOf, segmentList, toClientFeature, usedSegmentIds, type ClientSnapshot } from './payload.js';
import type { ClientQuery } from './query.js';
import type { DeltaEvent } from './schemas.js';
import type { ChangesSince } from './snapshot.js';

/**
 * Unleash's delta protocol (/api/client/delta): an SDK names the revision it holds in
 * If-None-Match and is sent the changes since, as events it applies in order; the first poll,
 * or a revision this container cannot account for, gets one `hydration` event with everything.
 * Pure: the service (features-service.ts) finds the snapshot and the steps and caches the answer.
 * Applying the events to what the SDK held gives what /api/client/features serves at the
 * answer's revision: the same features, and the segments they refer to.
 */

/** A snapshot as the delta reads it: with its revision and its features by name. */
export interface DeltaSource extends ClientSnapshot {
  revision: number;
  index: ReadonlyMap<string, Feature>;
}

/** The ETag of an answer at `revision`: the number Unleash's SDKs send back. */
export const deltaEtag = (revision: number): string => `"${revision}"`;

/**
 * The revision an SDK names, read as Unleash does (quotes stripped, a number); undefined for
 * none or anything else (a /api/client/features ETag, a weak one), which gets a hydration.
 */
export function deltaRevisionNamedIn(ifNoneMatch: string | undefined): number | undefined {
  const match = ifNoneMatch === undefined ? null : /^"?(\d{1,15})"?$/.exec(ifNoneMatch.trim());
  return match ? Number(match[1]) : undefined;
}

/** The hydration answer's text around the scope's features (payload-bytes.ts lays the chunks between). */
export const hydrationHead = (revision: number): string => `{"events":[{"type":"hydration","eventId":${revision},"features":[`;
export const hydrationTail = (segmentsText: string | undefined): string => `],"segments":${segmentsText ?? '[]'}}]}`;

/**
 * The events that bring an SDK of `query` from the revision `changes` start at to `snapshot`, or
 * undefined when only a hydration is safe: inlined segment constraints after a segment change,
 * or a feature this container cannot tell the SDK did not hold.
 */
export function deltaEvents(snapshot: DeltaSource, changes: ChangesSince, query: ClientQuery): DeltaEvent[] | undefined {
  if (query.inlineSegmentConstraints && changes.segmentsBefore) return undefined;
  const eventId = snapshot.revision;
  const updated: Feature[] = [];
  const removed: DeltaEvent[] = [];
  for (const name of [...changes.names].sort(compareText)) {
    const feature = snapshot.index.get(name);
    if (feature && isServed(feature, query)) {
      updated.push(feature);
      continue;
    }
    const removal = removalOf(name, feature, changes, query);
    if (removal === UNKNOWN) return undefined;
    if (removal !== undefined) removed.push({ type: 'feature-removed', eventId, featureName: name, project: removal });
  }
  const segments = query.inlineSegmentConstraints ? { updated: new Set<number>(), removed: [] } : segmentChanges(snapshot, changes, query, updated);
  return [
    // Before the features, so no feature arrives referring to a segment the SDK lacks.
    ...segmentList(segments.updated, snapshot.segmentsById).map((segment): DeltaEvent => ({ type: 'segment-updated', eventId, segment })),
    ...updated.map((feature): DeltaEvent => ({ type: 'feature-updated', eventId, feature: toClientFeature(feature, query, snapshot.segmentsById) })),
    ...removed,
    ...segments.removed.map((segmentId): DeltaEvent => ({ type: 'segment-removed', eventId, segmentId })),
  ];
}

const UNKNOWN = Symbol('unknown');

/**
 * Whether a changed feature the scope does not serve now must be removed from the SDK: the
 * project it is removed from, or undefined when the SDK cannot hold it. A removal names a
 * feature, so it is only sent for one that was in the scope's projects: a project-scoped token
 * never learns the names of other projects' features.
 */
function removalOf(name: string, feature: Feature | undefined, changes: ChangesSince, query: ClientQuery): string | undefined | typeof UNKNOWN {
  // A name never changes: one outside the prefix was never sent.
  if (query.namePrefix && !name.startsWith(query.namePrefix)) return undefined;
  const projects = [...(changes.before.get(name) ?? []).map((facts) => facts.project), ...(feature ? [feature.project] : [])];
  const inScope = projects.filter((project) => !query.projects || query.projects.includes(project));
  if (inScope.length > 0) return inScope[inScope.length - 1];
  // Gone, and never seen here: another container's snapshot may have held it and handed it to the
  // SDK under the same revision (a snapshot may hold data newer than its revision, ADR 16).
  if (projects.length === 0) return UNKNOWN;
  // Exact: the SDK holds what a snapshot here held, and none held it in the scope. Otherwise the
  // feature may have been in the scope between two snapshots here (created, or deleted and made
  // again in another project), unseen: everything is sent rather than guess.
  return changes.exact ? undefined : UNKNOWN;
}

/**
 * The segments to send and to remove. The SDK holds the segments the served features referred
 * to; after the events it must hold those they refer to now. Segments a changed feature refers
 * to now are sent (the SDK may lack them); segments it referred to before, and segments changed
 * or deleted, are removed unless a served feature still refers to them (then sent if changed).
 */
function segmentChanges(
  snapshot: DeltaSource,
  changes: ChangesSince,
  query: ClientQuery,
  updated: readonly Feature[],
): { updated: Set<number>; removed: number[] } {
  const referred = new Set(updated.flatMap((feature) => segmentIdsOf(feature, query)));
  const edited = editedSegments(changes.segmentsBefore, snapshot.segmentsById);
  const candidates = new Set([...edited, ...referred]);
  for (const facts of changes.before.values()) {
    for (const { segments } of facts) for (const id of segments.get(query.environment) ?? []) candidates.add(id);
  }
  let used: Set<number> | undefined;
  // The whole scope is walked only when a candidate is not referred to by a changed feature.
  const isUsed = (id: number): boolean => referred.has(id) || (used ??= usedSegmentIds(snapshot.features, query)).has(id);
  const send = new Set<number>();
  const removed: number[] = [];
  for (const id of [...candidates].sort((a, b) => a - b)) {
    if (snapshot.segmentsById.has(id) && isUsed(id)) {
      if (referred.has(id) || edited.has(id)) send.add(id);
    } else {
      removed.push(id);
    }
  }
  return { updated: send, removed };
}

/**
 * Segments changed or deleted since `before`; none when the segments did not change. One
 * created since matters only once a feature refers to it, and that feature changed too.
 */
function editedSegments(before: ReadonlyMap<number, Segment> | undefined, now: ReadonlyMap<number, Segment>): Set<number> {
  const edited = new Set<number>();
  if (!before) return edited;
  for (const [id, segment] of before) {
    const current = now.get(id);
    if (!current || segmentText(current) !== segmentText(segment)) edited.add(id);
  }
  return edited;
}

const segmentText = (segment: Segment): string => JSON.stringify([segment.name, segment.constraints]);

/** Code-unit order, as the payload sorts its features. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
