import {
  environmentOf,
  type Constraint,
  type Feature,
  type FeatureStrategy,
  type StrategyVariant,
  type Variant,
} from '../features/model.js';
import type { Segment } from '../segments/model.js';
import { queryEcho, type ClientQuery } from './query.js';
import type {
  ClientConstraint,
  ClientDependency,
  ClientFeature,
  ClientPayload,
  ClientPayloadMeta,
  ClientSegment,
  ClientStrategy,
  ClientStrategyVariant,
  ClientVariant,
} from './schemas.js';

/**
 * The SDK payload (E17/E18) in Unleash's wire form, built from the feature aggregates of one
 * environment. Pure: the service reads the data and caches the result. Its output types come
 * from the response schemas in schemas.ts.
 */

/** The data a payload is built from: every feature and every segment at one revision. */
export interface ClientSnapshot {
  features: Feature[];
  segmentsById: ReadonlyMap<number, Segment>;
}

export function buildClientPayload(snapshot: ClientSnapshot, query: ClientQuery, meta: ClientPayloadMeta): ClientPayload {
  const features = selectFeatures(snapshot.features, query).map((f) => toClientFeature(f, query, snapshot.segmentsById));
  return {
    version: 2,
    features,
    ...(query.inlineSegmentConstraints ? {} : { segments: segmentList(usedSegmentIds(snapshot.features, query), snapshot.segmentsById) }),
    query: queryEcho(query),
    meta,
  };
}

/**
 * The payload as text in three parts, for a payload kept in chunks (payload-bytes.ts):
 * `PAYLOAD_HEAD`, the served features' `featureText` separated by commas, `payloadTail`.
 * Together they are exactly `JSON.stringify(buildClientPayload(...))`.
 */
export const PAYLOAD_HEAD = '{"version":2,"features":[';

export function featureText(feature: Feature, query: ClientQuery, segmentsById: ReadonlyMap<number, Segment>): string {
  return JSON.stringify(toClientFeature(feature, query, segmentsById));
}

/** `segmentsText` is the scope's `segmentsText`, made once per build (the delta's hydration reuses it). */
export function payloadTail(segmentsText: string | undefined, query: ClientQuery, meta: ClientPayloadMeta): string {
  return `]${segmentsText ? `,"segments":${segmentsText}` : ''},"query":${JSON.stringify(queryEcho(query))},"meta":${JSON.stringify(meta)}}`;
}

/** The JSON text of the segments the scope's payload lists; undefined when they are inlined. */
export function segmentsText(snapshot: ClientSnapshot, query: ClientQuery): string | undefined {
  if (query.inlineSegmentConstraints) return undefined;
  return JSON.stringify(segmentList(usedSegmentIds(snapshot.features, query), snapshot.segmentsById));
}

/** The segment ids the served features' enabled strategies in the query's environment refer to. */
export function usedSegmentIds(features: Feature[], query: ClientQuery): Set<number> {
  const ids = new Set<number>();
  for (const feature of features) {
    if (!isServed(feature, query)) continue;
    for (const id of segmentIdsOf(feature, query)) ids.add(id);
  }
  return ids;
}

/** The segments one feature's enabled strategies in the query's environment refer to. */
export function segmentIdsOf(feature: Feature, query: ClientQuery): number[] {
  return environmentOf(feature, query.environment).strategies.flatMap((strategy) => (strategy.disabled ? [] : strategy.segments));
}

/** Non-archived features in the query's projects that pass its prefix and tag filters, by name. */
export function selectFeatures(features: readonly Feature[], query: ClientQuery): Feature[] {
  return features.filter((feature) => isServed(feature, query)).sort((a, b) => compareText(a.name, b.name));
}

export function isServed(feature: Feature, query: ClientQuery): boolean {
  if (feature.archived) return false;
  if (query.projects && !query.projects.includes(feature.project)) return false;
  if (query.namePrefix && !feature.name.startsWith(query.namePrefix)) return false;
  // Several tags combine with OR, as in Unleash.
  if (query.tags && !query.tags.some((t) => feature.tags.some((own) => own.type === t.type && own.value === t.value))) {
    return false;
  }
  return true;
}

/**
 * One feature's state in the query's environment. A project without that environment gives
 * no entry, which reads as off with no strategies; disabled strategies are never sent.
 */
export function toClientFeature(
  feature: Feature,
  query: ClientQuery,
  segmentsById: ReadonlyMap<number, Segment>,
): ClientFeature {
  const state = environmentOf(feature, query.environment);
  const strategies = state.strategies
    .filter((strategy) => !strategy.disabled)
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map((strategy) => toClientStrategy(strategy, query.inlineSegmentConstraints, segmentsById));
  return {
    name: feature.name,
    type: feature.type,
    description: feature.description,
    project: feature.project,
    enabled: state.enabled,
    stale: feature.stale,
    impressionData: feature.impressionData,
    strategies,
    variants: state.variants.map(toClientVariant),
    ...(feature.dependencies.length > 0 ? { dependencies: feature.dependencies.map(toClientDependency) } : {}),
  };
}

export function toClientStrategy(
  strategy: FeatureStrategy,
  inlineSegments: boolean,
  segmentsById: ReadonlyMap<number, Segment>,
): ClientStrategy {
  const own = strategy.constraints.map(toClientConstraint);
  const base = {
    name: strategy.name,
    parameters: stringParameters(strategy.parameters ?? {}),
    variants: strategy.variants.map(toClientStrategyVariant),
  };
  if (strategy.segments.length === 0) return { ...base, constraints: own };
  if (!inlineSegments) return { ...base, constraints: own, segments: [...strategy.segments] };
  const inlined = strategy.segments.flatMap((id) => segmentConstraints(id, segmentsById));
  return { ...base, constraints: [...own, ...inlined] };
}

/**
 * A segment missing from the snapshot (deleted between two reads) must not widen the strategy:
 * it inlines as a constraint nothing satisfies, as the SDK fails a strategy whose segment is
 * missing from the list.
 */
export function segmentConstraints(id: number, segmentsById: ReadonlyMap<number, Segment>): ClientConstraint[] {
  const segment = segmentsById.get(id);
  if (!segment) return [{ contextName: `missing-segment-${id}`, operator: 'IN', values: [], caseInsensitive: false, inverted: false }];
  return segment.constraints.map(toClientConstraint);
}

/** Every segment of `ids` that exists, by name (Unleash's order). */
export function segmentList(ids: ReadonlySet<number>, segmentsById: ReadonlyMap<number, Segment>): ClientSegment[] {
  return [...ids]
    .flatMap((id) => {
      const segment = segmentsById.get(id);
      return segment ? [{ id: segment.id, name: segment.name, constraints: segment.constraints.map(toClientConstraint) }] : [];
    })
    .sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
}

/** Explicit fields, so nothing else stored on a constraint ever reaches an SDK. */
function toClientConstraint(constraint: Constraint): ClientConstraint {
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    values: [...(constraint.values ?? [])],
    ...(constraint.value !== undefined ? { value: constraint.value } : {}),
    caseInsensitive: constraint.caseInsensitive ?? false,
    inverted: constraint.inverted ?? false,
  };
}

function toClientStrategyVariant(variant: StrategyVariant): ClientStrategyVariant {
  return {
    name: variant.name,
    weight: variant.weight,
    weightType: variant.weightType,
    stickiness: variant.stickiness,
    ...(variant.payload ? { payload: { type: variant.payload.type, value: variant.payload.value } } : {}),
  };
}

function toClientVariant(variant: Variant): ClientVariant {
  const overrides = variant.overrides ?? [];
  return {
    ...toClientStrategyVariant(variant),
    ...(overrides.length > 0 ? { overrides: overrides.map((o) => ({ contextName: o.contextName, values: [...o.values] })) } : {}),
  };
}

/** `variants` only when the parent must be on: a parent that must be off has no variant to match. */
function toClientDependency(dependency: Feature['dependencies'][number]): ClientDependency {
  return dependency.enabled
    ? { feature: dependency.feature, enabled: true, variants: [...(dependency.variants ?? [])] }
    : { feature: dependency.feature, enabled: false };
}

/** SDKs read parameters as text: numbers become text, objects JSON text, null an empty string. */
export function stringParameters(parameters: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, parameterText(value)]));
}

function parameterText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Code-unit order: the same on every machine, unlike locale order. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
