import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { Feature, Tag } from '../features/model.js';
import type { Segment } from '../segments/model.js';
import { ChunkedPayload, type FragmentOf, type StoredChunk } from './payload-bytes.js';
import { featureText, isServed, segmentConstraints, segmentIdsOf, segmentList, selectFeatures } from './payload.js';
import type { ClientQuery } from './query.js';
import { PAGE_BYTES } from './stored-snapshot.js';

/**
 * The served answers kept beside the stored SDK snapshot (ADR 25): per environment, the payload
 * chunks of the scope most SDKs poll (every project, segments listed, no filters), so that a
 * cold container serves them without decoding or serializing a feature, and follows a change by
 * reading only the features it names.
 */

/** The scope stored for `environment`: a `*:<environment>` token's SDK speaking spec 4.2.0 or later, without filters. */
export function storedScopeQuery(environment: string): ClientQuery {
  return { environment, inlineSegmentConstraints: false };
}

/** Whether `query` is a stored scope: only then may its answer come from the stored chunks. */
export function isStoredScope(query: ClientQuery): boolean {
  return !query.projects && !query.namePrefix && !query.tags && !query.inlineSegmentConstraints;
}

/** One environment's stored answer, or an answer derived from it: its chunks, and what its segment list is kept from. */
export interface StoredScope {
  environment: string;
  /** What it answers: the stored scope's query, or the narrower one it was derived for (`derivedScope`). */
  query: ClientQuery;
  chunked: ChunkedPayload;
  /** Each served feature's project: a project-scoped answer is derived from them. */
  projects: ReadonlyMap<string, string>;
  /** Each served feature's tags (absent: none): a tag-filtered answer is derived from them. */
  tags: ReadonlyMap<string, readonly Tag[]>;
  /** How many served features' enabled strategies refer to each segment: the list names those above zero. */
  segmentUses: ReadonlyMap<number, number>;
  /** Every segment at the snapshot: a changed feature's references are listed from them. */
  segments: readonly Segment[];
}

/** The stored scope's answer after `changed` features (read again; absent: deleted) replaced theirs; undefined when it cannot be told without every feature. */
export function splicedScope(scope: StoredScope, names: ReadonlySet<string>, changed: readonly Feature[]): StoredScope | undefined {
  const { query } = scope;
  const byName = new Map(changed.map((feature) => [feature.name, feature]));
  const segmentsById = new Map(scope.segments.map((segment) => [segment.id, segment]));
  const uses = new Map(scope.segmentUses);
  const projects = new Map(scope.projects);
  const tags = new Map(scope.tags);
  for (const name of names) {
    projects.delete(name);
    tags.delete(name);
  }
  const count = (id: number, by: number) => uses.set(id, (uses.get(id) ?? 0) + by);
  const fragmentOf: FragmentOf = (name) => {
    const feature = byName.get(name);
    return feature && isServed(feature, query) ? featureText(feature, query, segmentsById) : undefined;
  };
  for (const feature of byName.values()) {
    if (!isServed(feature, query)) continue;
    projects.set(feature.name, feature.project);
    if (feature.tags.length > 0) tags.set(feature.name, feature.tags);
    const ids = segmentIdsOf(feature, query);
    // A segment made after the snapshot is not among the stored ones: the change log names it (a segment change), so this only guards.
    if (ids.some((id) => !segmentsById.has(id))) return undefined;
    for (const id of ids) count(id, 1);
  }
  const chunked = scope.chunked.updated(names, fragmentOf, (_name, before) => {
    for (const id of segmentIdsInFragment(before)) count(id, -1);
  });
  if (!chunked) return undefined;
  return { ...scope, chunked, segmentUses: uses, projects, tags };
}

/** Whether `query` serves the feature `name` the scope serves, told from the scope's own record of its project and tags (isServed's rules). */
export function servesIn(scope: StoredScope, name: string, query: ClientQuery): boolean {
  if (query.projects && !query.projects.includes(scope.projects.get(name) as string)) return false;
  if (query.namePrefix && !name.startsWith(query.namePrefix)) return false;
  const own = scope.tags.get(name) ?? [];
  return !query.tags || query.tags.some((t) => own.some((tag) => tag.type === t.type && tag.value === t.value));
}

/**
 * The answer of `query` (same environment) from the stored scope's features, none decoded: the
 * stored text of the features in the query's projects, prefix and tags, and for an SDK
 * that inlines segments, the features referring to one written again with their constraints.
 * Only the chunks that changed are compressed again.
 */
export function derivedScope(scope: StoredScope, query: ClientQuery): StoredScope | undefined {
  const segmentsById = new Map(scope.segments.map((segment) => [segment.id, segment]));
  const changed = new Map<string, string | undefined>();
  const projects = new Map<string, string>();
  const tags = new Map<string, readonly Tag[]>();
  const uses = new Map<number, number>();
  // Only the served features' texts are made strings: whether one is served is told from its name, project and tags.
  const fragments = scope.chunked.fragments((name) => servesIn(scope, name, query));
  for (const name of scope.chunked.names()) if (!fragments.has(name)) changed.set(name, undefined);
  for (const [name, fragment] of fragments) {
    projects.set(name, scope.projects.get(name) as string);
    const own = scope.tags.get(name);
    if (own) tags.set(name, own);
    const ids = segmentIdsInFragment(fragment);
    for (const id of ids) uses.set(id, (uses.get(id) ?? 0) + 1);
    if (ids.length > 0 && query.inlineSegmentConstraints) changed.set(name, inlinedFragment(fragment, segmentsById));
  }
  const fragmentOf: FragmentOf = (name) => changed.get(name);
  const chunked = changed.size === 0 ? scope.chunked : scope.chunked.updated(changed.keys(), fragmentOf, undefined, fragments);
  return chunked && { ...scope, query, chunked, projects, tags, segmentUses: uses };
}

/** One feature's stored text (segments listed by id) with each strategy's segments inlined as constraints, as `toClientStrategy` writes it for such an SDK. */
export function inlinedFragment(fragment: string, segmentsById: ReadonlyMap<number, Segment>): string {
  const feature = JSON.parse(fragment) as { strategies: { constraints: unknown[]; segments?: number[] }[] };
  feature.strategies = feature.strategies.map(({ segments, ...strategy }) =>
    segments ? { ...strategy, constraints: [...strategy.constraints, ...segments.flatMap((id) => segmentConstraints(id, segmentsById))] } : strategy);
  return JSON.stringify(feature);
}

/** The scope's segment list as the payload writes it; undefined when its SDK inlines them. */
export function storedScopeSegmentsText(scope: StoredScope): string | undefined {
  if (scope.query.inlineSegmentConstraints) return undefined;
  const used = new Set([...scope.segmentUses].filter(([, uses]) => uses > 0).map(([id]) => id));
  return JSON.stringify(segmentList(used, new Map(scope.segments.map((segment) => [segment.id, segment]))));
}

/** The stored scope of `environment` built from every feature (the writer's first build, or after a whole read). */
export function buildStoredScope(environment: string, features: readonly Feature[], segments: readonly Segment[], previous?: ChunkedPayload, changed?: ReadonlySet<string>): StoredScope {
  const query = storedScopeQuery(environment);
  const segmentsById = new Map(segments.map((segment) => [segment.id, segment]));
  const served = selectFeatures(features, query);
  const byName = new Map(served.map((feature) => [feature.name, feature]));
  const fragmentOf: FragmentOf = (name) => {
    const feature = byName.get(name);
    return feature ? featureText(feature, query, segmentsById) : undefined;
  };
  const chunked = (previous && changed ? previous.updated(changed, fragmentOf) : undefined) ?? ChunkedPayload.build(served.map((feature) => feature.name), fragmentOf);
  const segmentUses = new Map<number, number>();
  for (const feature of served) for (const id of segmentIdsOf(feature, query)) segmentUses.set(id, (segmentUses.get(id) ?? 0) + 1);
  const projects = new Map(served.map((feature) => [feature.name, feature.project]));
  const tags = new Map(served.flatMap((feature) => (feature.tags.length > 0 ? [[feature.name, feature.tags] as const] : [])));
  return { environment, query, chunked, projects, tags, segmentUses, segments };
}

/** The environments a stored snapshot's features are in: one stored scope each. */
export function environmentsOf(features: readonly Feature[]): string[] {
  const environments = new Set<string>();
  for (const feature of features) for (const environment of Object.keys(feature.environments)) environments.add(environment);
  return [...environments].sort();
}

interface Manifest {
  environment: string;
  /** Per chunk, each name's project as an index into `projectNames`, and its tags as one into `tagLists` (-1: none). */
  chunks: (Omit<StoredChunk, 'deflated'> & { bytes: number; projects: number[]; tags: number[] })[];
  projectNames: string[];
  tagLists: Tag[][];
  windowBytes: number;
  segmentUses: [number, number][];
  segments: readonly Segment[];
}

/**
 * A stored scope as bytes cut into pages: the manifest's length (4 bytes), the manifest (gzip
 * JSON: the chunks' names, sizes and checksums, the segments), the last window (raw deflate),
 * then every chunk's deflated bytes as served.
 */
export function encodeScope(scope: StoredScope): Buffer[] {
  const { chunks, lastWindow } = scope.chunked.toStored();
  const window = deflateRawSync(lastWindow);
  const projectNames = [...new Set(scope.projects.values())].sort();
  const projectIndex = new Map(projectNames.map((project, index) => [project, index]));
  const tagLists: Tag[][] = [];
  const tagIndex = new Map<string, number>();
  const tagsOf = (name: string): number => {
    const own = scope.tags.get(name);
    if (!own) return -1;
    const key = JSON.stringify(own.map(({ type, value }) => [type, value]));
    let index = tagIndex.get(key);
    if (index === undefined) {
      tagIndex.set(key, (index = tagLists.length));
      tagLists.push(own.map(({ type, value }) => ({ type, value })));
    }
    return index;
  };
  const manifest: Manifest = {
    environment: scope.environment,
    chunks: chunks.map(({ deflated, ...rest }) => ({ ...rest, bytes: deflated.length, projects: rest.names.map((name) => projectIndex.get(scope.projects.get(name) as string) as number), tags: rest.names.map(tagsOf) })),
    projectNames,
    tagLists,
    windowBytes: window.length,
    segmentUses: [...scope.segmentUses].filter(([, uses]) => uses > 0),
    segments: scope.segments,
  };
  const manifestBytes = gzipSync(JSON.stringify(manifest));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(manifestBytes.length, 0);
  const whole = Buffer.concat([length, manifestBytes, window, ...chunks.map((chunk) => chunk.deflated)]);
  const pages: Buffer[] = [];
  for (let start = 0; start < whole.length; start += PAGE_BYTES) pages.push(whole.subarray(start, start + PAGE_BYTES));
  return pages;
}

export function decodeScope(pages: readonly Buffer[]): StoredScope {
  const whole = pages.length === 1 ? (pages[0] as Buffer) : Buffer.concat(pages);
  const manifestLength = whole.readUInt32BE(0);
  const manifest = JSON.parse(gunzipSync(whole.subarray(4, 4 + manifestLength)).toString('utf8')) as Manifest;
  let at = 4 + manifestLength;
  const projects = new Map<string, string>();
  const tags = new Map<string, readonly Tag[]>();
  const lastWindow = inflateRawSync(whole.subarray(at, at + manifest.windowBytes));
  at += manifest.windowBytes;
  const chunks: StoredChunk[] = manifest.chunks.map(({ bytes, projects: projectIndices, tags: tagIndices, ...rest }) => {
    const deflated = whole.subarray(at, at + bytes);
    at += bytes;
    for (const [index, name] of rest.names.entries()) {
      projects.set(name, manifest.projectNames[projectIndices[index] as number] as string);
      const own = manifest.tagLists[tagIndices[index] as number];
      if (own) tags.set(name, own);
    }
    return { ...rest, deflated };
  });
  if (at !== whole.length) throw new Error('stored SDK scope of another length than its manifest says');
  return {
    environment: manifest.environment,
    query: storedScopeQuery(manifest.environment),
    projects,
    tags,
    chunked: ChunkedPayload.restore({ chunks, lastWindow }),
    segmentUses: new Map(manifest.segmentUses),
    segments: manifest.segments,
  };
}

/**
 * The segment ids a feature's served text refers to (its strategies are only the enabled ones).
 * `"segments":[` is only ever a strategy's key there: inside a string its quote is escaped, and
 * parameters and payloads are strings, so the lists are read without parsing the feature.
 */
function segmentIdsInFragment(fragment: string): number[] {
  const ids: number[] = [];
  for (let at = fragment.indexOf(SEGMENTS_KEY); at >= 0; at = fragment.indexOf(SEGMENTS_KEY, at + 1)) {
    const start = at + SEGMENTS_KEY.length;
    const list = fragment.slice(start, fragment.indexOf(']', start));
    if (list.length > 0) for (const id of list.split(',')) ids.push(Number(id));
  }
  return ids;
}
const SEGMENTS_KEY = '"segments":[';
