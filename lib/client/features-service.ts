import { gunzipSync } from 'node:zlib';
import { NotFound } from '../errors.js';
import type { FeatureStore } from '../features/store.js';
import type { Feature } from '../features/model.js';
import type { SegmentStore } from '../segments/store.js';
import type { Caller } from '../tokens/model.js';
import { BoundedCache } from '../bounded-cache.js';
import { ChunkedPayload } from './payload-bytes.js';
import { deltaEtag, deltaEvents, deltaRevisionNamedIn, hydrationHead, hydrationTail } from './delta.js';
import { featureText, isServed, PAYLOAD_HEAD, payloadTail, segmentsText, selectFeatures, toClientFeature, type ClientSnapshot } from './payload.js';
import { resolveQuery, scopeKeyOf, shortHashOf, type ClientQuery, type ClientRequest } from './query.js';
import type { ChangeLogEntry, RevisionState } from '../revision.js';
import type { RevisionClock } from './revision-clock.js';
import type { ClientFeature } from './schemas.js';
import { changesSince, factsOf, stepsSince, type FeatureFacts, type VersionedSnapshot } from './snapshot.js';
import { decodeSnapshot, encodeSnapshot, needsRewrite, STORED_SNAPSHOT_FORMAT, type StoredSnapshotStore } from './stored-snapshot.js';
import { log } from '../log.js';
import { randomUUID } from 'node:crypto';

/** What changed between two readings of the revision (lib/store/revision-store.ts). */
export interface ChangeLog {
  changesSince(from: RevisionState['shards'], to: RevisionState['shards']): Promise<ChangeLogEntry[] | undefined>;
}

/** One scope's payload at one revision, serialized and compressed once and then replayed. */
export interface ServedPayload {
  revision: number;
  etag: string;
  /** The JSON text, decompressed from the gzip on first use (SDKs ask for gzip; few ever need it). */
  readonly json: string;
  /** Bytes of the JSON text (UTF-8), known without making it. */
  jsonBytes: number;
  /** The JSON gzip-compressed, in base64 as a Lambda response carries binary bodies. */
  gzipBase64: string;
}

/** A cached payload with what the next revision's payload of its scope is built from. */
interface CachedPayload extends ServedPayload {
  /** The snapshot it was built from, and its chunks: a later payload recompresses only what changed. */
  snapshotVersion: number;
  chunked: ChunkedPayload;
  /** The segments it lists, as JSON text (undefined when inlined): the delta's hydration lists them too. */
  segmentsText: string | undefined;
}

/** How many steps a snapshot remembers: a scope further behind is built whole. */
const REMEMBERED_STEPS = 64;

export type FeaturesAnswer = { modified: false; etag: string } | { modified: true; payload: ServedPayload };

/** A delta answer: not modified, the changes as JSON text, or a hydration's stored bytes. */
export type DeltaAnswer =
  | { modified: false; etag: string }
  | { modified: true; etag: string; events: string }
  | { modified: true; etag: string; payload: ServedPayload };

/** Delta answers kept per process: many SDKs of a scope ask for the same change. */
const DELTA_CACHE = { maxEntries: 200, maxWeight: 4 * 1024 * 1024 };

export interface PayloadCacheLimits {
  /** Distinct resolved queries (token scope × filters × segment mode) kept per process. */
  maxEntries: number;
  /** The JSON and gzip text of all entries together. */
  maxBytes: number;
}

/** 50 scopes, and 64 MiB: about 60 scopes of 1,000 flags, an eighth of a 512 MB function. */
export const DEFAULT_PAYLOAD_CACHE: PayloadCacheLimits = { maxEntries: 50, maxBytes: 64 * 1024 * 1024 };

export interface ClientFeatureServiceOptions {
  limits?: PayloadCacheLimits;
  /** The ETag's short hash of a scope key; a test forces collisions with it. */
  shortHash?: (scopeKey: string) => string;
  /** The stored snapshot a cold container starts from (ADR 20); without it, a cold container reads every feature. */
  stored?: StoredSnapshotStore;
}

/** What the scheduled writer did: wrote a new stored snapshot, found one recent enough, or lost to a newer one. */
export type StoreOutcome = 'written' | 'recent' | 'superseded';

/** A resolved query with the names it goes by: the whole canonical key, and the ETag's short hash. */
interface Scope {
  query: ClientQuery;
  /** Selects the cache entry and the build in progress: the full canonical query text. */
  key: string;
  /** Only decorates the ETag and `meta.queryHash`; two scopes may share it. */
  hash: string;
}

/**
 * The SDK read path (DESIGN §3, ADR 9). The revision comes from the clock (at most one
 * DynamoDB read per interval); an SDK whose If-None-Match equals the ETag gets a 304, anything
 * else the stored bytes of its scope at that revision. Only when the revision moved are the
 * features and segments read again, once per revision for every scope.
 */
export class ClientFeatureService {
  private readonly payloads: BoundedCache<string, CachedPayload>;
  private readonly building = new Map<string, Promise<CachedPayload>>();
  /** Delta answers by SDK revision, snapshot version and scope key. */
  private readonly deltas = new BoundedCache<string, string>({ ...DELTA_CACHE, weigh: (events) => events.length });
  private snapshot: { state: RevisionState; data: Promise<VersionedSnapshot> } | undefined;
  private snapshotVersions = 0;

  private readonly shortHash: (scopeKey: string) => string;
  private readonly stored: StoredSnapshotStore | undefined;

  constructor(
    private readonly featureStore: Pick<FeatureStore, 'listAll' | 'getMany'>,
    private readonly segmentStore: Pick<SegmentStore, 'list'>,
    private readonly clock: Pick<RevisionClock, 'current' | 'state' | 'fresh'>,
    private readonly changeLog: ChangeLog,
    { limits = DEFAULT_PAYLOAD_CACHE, shortHash = shortHashOf, stored }: ClientFeatureServiceOptions = {},
  ) {
    this.shortHash = shortHash;
    this.stored = stored;
    this.payloads = new BoundedCache({
      maxEntries: limits.maxEntries,
      maxWeight: limits.maxBytes,
      weigh: (payload) => payload.gzipBase64.length + payload.chunked.weight,
    });
  }

  /**
   * E17: the stored payload, or "not modified" when the SDK already has this ETag.
   * `checkedRevision` is what the token check of this request read, if it read the revision item.
   */
  async features(
    caller: Caller,
    request: ClientRequest,
    ifNoneMatch: string | undefined,
    checkedRevision?: number,
  ): Promise<FeaturesAnswer> {
    const query = resolveQuery(caller, request);
    const key = scopeKeyOf(query);
    const scope: Scope = { query, key, hash: this.shortHash(key) };
    const revision = await this.revisionFor(revisionNamedIn(ifNoneMatch), checkedRevision);
    // The ETag is compared with the one of the caller's own scope, so a short hash shared with
    // another scope can at most tell an SDK that changed its token that its old bytes are current.
    const etag = etagOf(scope.hash, revision);
    if (ifNoneMatch === etag) return { modified: false, etag };
    return { modified: true, payload: await this.payloadAt(scope, revision) };
  }

  /**
   * E18: one feature in the same scope, filtered by exact name instead of `namePrefix`.
   * Missing, archived and out-of-scope features all answer the same 404.
   */
  async feature(caller: Caller, request: ClientRequest, name: string, checkedRevision?: number): Promise<ClientFeature> {
    const query = { ...resolveQuery(caller, request), namePrefix: undefined };
    const snapshot = await this.snapshotAt(await this.revisionFor(0, checkedRevision));
    const feature = featuresByName(snapshot).get(name);
    if (!feature || !isServed(feature, query)) throw new NotFound(`Could not find feature toggle ${name}`);
    return toClientFeature(feature, query, snapshot.segmentsById);
  }

  /**
   * The delta API: the changes since the revision the SDK names in If-None-Match, at the same
   * revision and in the same scope as E17 would answer. Not modified when the SDK holds the
   * current revision; a hydration (the scope's payload bytes as one event) when it names none,
   * one the table never held, or one this container's steps cannot account for.
   */
  async delta(caller: Caller, request: ClientRequest, ifNoneMatch: string | undefined, checkedRevision?: number): Promise<DeltaAnswer> {
    const query = resolveQuery(caller, request);
    const key = scopeKeyOf(query);
    const held = deltaRevisionNamedIn(ifNoneMatch);
    const revision = await this.revisionFor(held ?? 0, checkedRevision);
    if (held === revision) return { modified: false, etag: deltaEtag(revision) };
    if (held !== undefined && held < revision) {
      const snapshot = await this.snapshotAt(revision);
      const cacheKey = `${held} ${snapshot.version} ${key}`;
      let events = this.deltas.get(cacheKey);
      if (events === undefined) {
        const changes = changesSince(snapshot, held);
        const list = changes && deltaEvents({ ...snapshot, index: featuresByName(snapshot) }, changes, query);
        if (list) this.deltas.set(cacheKey, (events = JSON.stringify({ events: list })));
      }
      // A change outside the scope answers no events with the new ETag, so the SDK moves on from its revision.
      if (events !== undefined) return { modified: true, etag: deltaEtag(snapshot.revision), events };
    }
    const payload = await this.payloadAt({ query, key, hash: this.shortHash(key) }, revision);
    const etag = deltaEtag(payload.revision);
    const gzipped = payload.chunked.gzip(hydrationHead(payload.revision), hydrationTail(payload.segmentsText));
    return { modified: true, etag, payload: servedBytes(payload.revision, etag, gzipped, {}) };
  }

  /**
   * The revision to answer at. The token check's read came from the same clock during this
   * request, so it serves unless the SDK has already seen a newer revision on another
   * container (monotonic reads): then the clock reads again rather than answer older data.
   */
  private revisionFor(atLeast: number, checkedRevision: number | undefined): Promise<number> {
    if (checkedRevision !== undefined && checkedRevision >= atLeast) return Promise.resolve(checkedRevision);
    return this.clock.current(atLeast);
  }

  /** The cached payload of the scope, when it is at least as new; concurrent builds are shared. */
  private payloadAt(scope: Scope, revision: number): Promise<CachedPayload> {
    const cached = this.payloads.get(scope.key);
    if (cached && cached.revision >= revision) return Promise.resolve(cached);
    // The revision leads and has no space in it, so the build key is unambiguous.
    const buildKey = `${revision} ${scope.key}`;
    const pending = this.building.get(buildKey);
    if (pending) return pending;
    const built = this.build(scope, revision).finally(() => this.building.delete(buildKey));
    this.building.set(buildKey, built);
    return built;
  }

  /**
   * The scope's payload at the snapshot: from the scope's previous payload when the snapshot's
   * steps since it are known (only the chunks of the features changed are built again), else
   * whole. Inlined segment constraints are in every feature's text, so a segment change there
   * builds whole.
   */
  private async build(scope: Scope, revision: number): Promise<CachedPayload> {
    const snapshot = await this.snapshotAt(revision);
    const etag = etagOf(scope.hash, revision);
    const meta = { revisionId: revision, etag, queryHash: scope.hash };
    const index = featuresByName(snapshot);
    const fragmentOf = (name: string): string | undefined => {
      const feature = index.get(name);
      return feature && isServed(feature, scope.query) ? featureText(feature, scope.query, snapshot.segmentsById) : undefined;
    };
    const previous = this.payloads.get(scope.key);
    const steps = previous ? stepsSince(snapshot, previous.snapshotVersion) : undefined;
    const reusable = previous && steps && !(steps.segments && scope.query.inlineSegmentConstraints);
    const chunked =
      (reusable ? previous.chunked.updated(steps.names, fragmentOf) : undefined) ??
      ChunkedPayload.build(selectFeatures(snapshot.features, scope.query).map((feature) => feature.name), fragmentOf);
    const segments = segmentsText(snapshot, scope.query);
    const gzipped = chunked.gzip(PAYLOAD_HEAD, payloadTail(segments, scope.query, meta));
    const payload = servedBytes(revision, etag, gzipped, { snapshotVersion: snapshot.version, chunked, segmentsText: segments });
    // A slower build of an older revision must not replace a newer entry.
    const latest = this.payloads.get(scope.key);
    if (!latest || latest.revision < revision) this.payloads.set(scope.key, payload);
    return payload;
  }

  /**
   * Every feature and segment at `revision` or later, shared by all queries and concurrent
   * requests. The first comes from the stored snapshot and the changes since (ADR 20), or is read
   * whole; after that only what the change log names (ADR 16): the features changed since, the
   * segments if they changed, or everything when the log cannot tell. Reads follow the revision
   * read, so they hold at least every write up to it.
   */
  private snapshotAt(revision: number): Promise<VersionedSnapshot> {
    if (this.snapshot && this.snapshot.state.revision >= revision) return this.snapshot.data;
    const previous = this.snapshot;
    const statePromise = this.clock.state(revision);
    const data = statePromise.then(
      async (state): Promise<VersionedSnapshot> =>
        (previous ? await this.updated(await previous.data.catch(() => undefined), state) : await this.fromStored(state)) ??
        (await this.readWhole(state)),
    );
    const entry = {
      // Until the revision read answers, the entry stands for `revision` itself.
      state: { revision, tokenChanges: 0, shards: new Map<string, number>() } as RevisionState,
      data,
    };
    statePromise.then((state) => (entry.state = state), () => undefined);
    this.snapshot = entry;
    data.catch(() => {
      if (this.snapshot === entry) this.snapshot = undefined;
    });
    return data;
  }

  private async readWhole(state: RevisionState): Promise<VersionedSnapshot> {
    const [features, segments] = await Promise.all([this.featureStore.listAll(), this.segmentStore.list()]);
    return {
      features,
      segmentsById: new Map(segments.map((segment) => [segment.id, segment])),
      version: (this.snapshotVersions += 1),
      revision: state.revision,
      shards: state.shards,
      steps: [],
    };
  }

  /**
   * A cold container's start: the stored snapshot moved on to `state` by the change log, or
   * undefined (read everything) when there is none, it cannot be read, or the log cannot tell.
   * A stored snapshot whose every shard is at least `state`'s serves under `state`'s label: its
   * features may be newer than the label, never older, as ADR 16 allows.
   */
  private async fromStored(state: RevisionState): Promise<VersionedSnapshot | undefined> {
    if (!this.stored) return undefined;
    try {
      const head = await this.stored.head();
      if (!head || head.format !== STORED_SNAPSHOT_FORMAT) return undefined;
      const pages = await this.stored.pages(head);
      if (!pages) return undefined;
      const { features, segments } = decodeSnapshot(pages);
      const base: VersionedSnapshot = {
        features,
        segmentsById: new Map(segments.map((segment) => [segment.id, segment])),
        version: (this.snapshotVersions += 1),
        revision: head.revision,
        shards: head.shards,
        steps: [],
      };
      // Shard by shard, not by their sums: two readings can have equal sums and different shards.
      const holdsReading = [...state.shards].every(([shard, value]) => value <= (head.shards.get(shard) ?? 0));
      if (holdsReading) return { ...base, revision: state.revision, shards: state.shards };
      return await this.updated(base, state);
    } catch (error) {
      // The stored snapshot only saves work: whatever is wrong with it, the whole read answers.
      log.warn('stored SDK snapshot not usable; reading every feature', { error: String(error) });
      return undefined;
    }
  }

  /**
   * The scheduled writer (functions/sdk-snapshot): stores this container's snapshot at the current
   * revision when the stored one needs replacing (REWRITE_POLICY). A warm writer follows the
   * change log like any SDK container, so a rewrite reads only what changed since its last one.
   */
  async storeSnapshot(now: Date = new Date()): Promise<StoreOutcome> {
    const stored = this.stored;
    if (!stored) throw new Error('no store for the SDK snapshot');
    const [state, head] = await Promise.all([this.clock.state(), stored.head()]);
    const entries = head && head.revision < state.revision ? await this.changeLog.changesSince(head.shards, state.shards) : [];
    if (!needsRewrite(head, state.revision, featuresNamedIn(entries)?.size, now.getTime())) return 'recent';
    const snapshot = await this.snapshotAt(state.revision);
    const pages = encodeSnapshot({ features: snapshot.features, segments: [...snapshot.segmentsById.values()] });
    const written = await stored.save({
      id: randomUUID(), format: STORED_SNAPSHOT_FORMAT, revision: snapshot.revision, shards: snapshot.shards,
      pages: pages.length, bytes: pages.reduce((sum, page) => sum + page.length, 0), writtenAt: now.toISOString(),
    }, pages);
    return written ? 'written' : 'superseded';
  }

  /** `base` moved on to `state` by the changes in between, or undefined when only a whole read will do. */
  private async updated(base: VersionedSnapshot | undefined, state: RevisionState): Promise<VersionedSnapshot | undefined> {
    if (!base || base.shards.size === 0) return undefined;
    const entries = await this.changeLog.changesSince(base.shards, state.shards);
    const names = featuresNamedIn(entries);
    if (!entries || !names) return undefined;
    const segmentsChanged = entries.some(({ change }) => 'segments' in change && change.segments === true);
    const [changed, segments] = await Promise.all([
      names.size > 0 ? this.featureStore.getMany([...names]) : [],
      segmentsChanged ? this.segmentStore.list() : undefined,
    ]);
    const byName = new Map(base.features.map((feature) => [feature.name, feature]));
    // What the base held of each name: the delta API tells from it whether an SDK held the feature.
    const before = new Map<string, FeatureFacts>();
    for (const name of names) {
      const old = byName.get(name);
      if (old) before.set(name, factsOf(old));
      byName.delete(name);
    }
    for (const feature of changed) byName.set(feature.name, feature);
    const version = (this.snapshotVersions += 1);
    const step = {
      from: base.version, to: version, fromRevision: base.revision, names: [...names], segments: segmentsChanged,
      before, segmentsBefore: segmentsChanged ? base.segmentsById : undefined,
    };
    const snapshot: VersionedSnapshot = {
      features: [...byName.values()],
      segmentsById: segments ? new Map(segments.map((segment) => [segment.id, segment])) : base.segmentsById,
      version,
      revision: state.revision,
      shards: state.shards,
      steps: [...base.steps, step].slice(-REMEMBERED_STEPS),
    };
    // The map just built is the new snapshot's name index: the payload builds look names up in it.
    nameIndexes.set(snapshot, byName);
    return snapshot;
  }

  /**
   * Every feature, archived ones included, as of a fresh revision read: an admin read (the
   * unfiltered feature search) that sees every write acknowledged before it, from this container's
   * snapshot. A warm container reads only what changed since (ADR 16), a cold one the stored
   * snapshot (ADR 20). The features are shared: callers must not change them.
   */
  async everyFeature(): Promise<readonly Feature[]> {
    const state = await this.clock.fresh();
    return (await this.snapshotAt(state.revision)).features;
  }

  /**
   * Which of `names` the caller's SDK is served at the current revision, by the payload's own
   * scope rules (the token's projects, no archived feature) without an SDK's optional filters:
   * what a token may record metrics for. It costs what a poll costs, the shared revision check
   * and snapshot, and then a lookup per name, never a read per report.
   */
  async servedNames(caller: Caller, request: ClientRequest, names: readonly string[]): Promise<Set<string>> {
    const query = { ...resolveQuery(caller, request), namePrefix: undefined, tags: undefined };
    const index = featuresByName(await this.snapshotAt(await this.clock.current()));
    return new Set(names.filter((name) => {
      const feature = index.get(name);
      return feature !== undefined && isServed(feature, query);
    }));
  }
}

/** The features the change-log entries name, or undefined when they cannot tell (missing entries, or an "everything" change). */
function featuresNamedIn(entries: ChangeLogEntry[] | undefined): Set<string> | undefined {
  if (!entries || entries.some(({ change }) => 'everything' in change)) return undefined;
  return new Set(entries.flatMap(({ change }) => ('features' in change ? change.features : [])));
}

/** Stored bytes whose JSON text is only made (from the gzip) when a caller without gzip asks. */
function servedBytes<T extends object>(revision: number, etag: string, gzipped: Buffer, extra: T): ServedPayload & T {
  const gzipBase64 = gzipped.toString('base64');
  let json: string | undefined;
  return {
    ...extra,
    revision,
    etag,
    gzipBase64,
    // The gzip trailer's last four bytes: the uncompressed length (mod 2^32, far above any payload).
    jsonBytes: gzipped.readUInt32LE(gzipped.length - 4),
    // Only the base64 text is kept (the cache weighs it); the rare caller without gzip decodes it.
    get json() {
      json ??= gunzipSync(Buffer.from(gzipBase64, 'base64')).toString('utf8');
      return json;
    },
  };
}

type SnapshotFeature = ClientSnapshot['features'][number];
const nameIndexes = new WeakMap<ClientSnapshot, ReadonlyMap<string, SnapshotFeature>>();

/** A snapshot's features by name, built once per revision (E18 and the metrics path look names up). */
function featuresByName(snapshot: ClientSnapshot): ReadonlyMap<string, SnapshotFeature> {
  let index = nameIndexes.get(snapshot);
  if (!index) {
    index = new Map(snapshot.features.map((feature) => [feature.name, feature]));
    nameIndexes.set(snapshot, index);
  }
  return index;
}

/** Unleash's ETag form, `"<queryHash>:<revision>"`. */
const etagOf = (hash: string, revision: number): string => `"${hash}:${revision}"`;

/**
 * The revision an ETag of ours names, whatever its scope (the SDK saw that much data), or 0
 * for anything else: weak, foreign, or absent.
 */
export function revisionNamedIn(ifNoneMatch: string | undefined): number {
  const match = ifNoneMatch === undefined ? null : /^"[0-9a-f]{8}:(\d{1,15})"$/.exec(ifNoneMatch);
  return match ? Number(match[1]) : 0;
}
