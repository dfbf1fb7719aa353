import { constants, gunzipSync } from 'node:zlib';
import { NotFound } from '../errors.js';
import type { Caller } from '../tokens/model.js';
import { BoundedCache } from '../bounded-cache.js';
import { ChunkedPayload, type GzipPayload } from './payload-bytes.js';
import { deltaEtag, deltaEvents, deltaRevisionNamedIn, hydrationHead, hydrationTail } from './delta.js';
import { featureText, isServed, PAYLOAD_HEAD, payloadTail, segmentsText, selectFeatures, toClientFeature } from './payload.js';
import { resolvedScopeOf, resolveQuery, scopeKeyOf, shortHashOf, type ClientQuery, type ClientRequest } from './query.js';
import type { RevisionClock } from './revision-clock.js';
import type { ClientFeature } from './schemas.js';
import { featuresByName, type FeatureSnapshots, type StoredScopeReading, type StoreOutcome } from './feature-snapshots.js';
import { changesSince, stepsSince } from './snapshot.js';
import { derivedScope, inlinedFragment, isStoredScope, servesIn, storedScopeQuery, storedScopeSegmentsText } from './stored-scopes.js';
import { outsideRequest } from '../request-deadline.js';

/** One scope's payload at one revision, serialized and compressed once and then replayed. */
export interface ServedPayload {
  revision: number;
  etag: string;
  /** The JSON text, decompressed from the gzip on first use (SDKs ask for gzip; few ever need it). */
  readonly json: string;
  /** Bytes of the JSON text (UTF-8), known without making it. */
  jsonBytes: number;
  /**
   * Bytes of the JSON text written as a JSON string, quotes included: what the body adds to the
   * Lambda answer that carries it uncompressed (held to 6 MB), known without making it.
   */
  quotedJsonBytes: number;
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
  /** A stored scope's answer it was served from (ADR 25): the next change is spliced into it. */
  stored?: StoredScopeReading;
}

export type FeaturesAnswer = { modified: false; etag: string } | { modified: true; payload: ServedPayload };

/** A delta answer: not modified, the changes as JSON text, or a hydration's stored bytes. */
export type DeltaAnswer =
  | { modified: false; etag: string }
  | { modified: true; etag: string; events: string }
  | { modified: true; etag: string; payload: ServedPayload };

/** The snapshot version of a payload no snapshot of this process built (a stored scope's): no steps lead from it. */
const NO_SNAPSHOT = -1;

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
}

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
 * features and segments read again (FeatureSnapshots), once per revision for every scope.
 */
export class ClientFeatureService {
  private readonly payloads: BoundedCache<string, CachedPayload>;
  private readonly building = new Map<string, Promise<CachedPayload>>();
  /** Delta answers by SDK revision, snapshot version and scope key. */
  private readonly deltas = new BoundedCache<string, string>({ ...DELTA_CACHE, weigh: (events) => events.length });
  private readonly shortHash: (scopeKey: string) => string;

  /** `snapshots`: every feature and segment at a revision (shared with the admin read model); `clock`: the revision this process last read. */
  constructor(
    private readonly snapshots: Pick<FeatureSnapshots, 'at' | 'store' | 'storedScope'> & Partial<Pick<FeatureSnapshots, 'loaded'>>,
    private readonly clock: Pick<RevisionClock, 'current'>,
    { limits = DEFAULT_PAYLOAD_CACHE, shortHash = shortHashOf }: ClientFeatureServiceOptions = {},
  ) {
    this.shortHash = shortHash;
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
    const { query, key } = resolvedScopeOf(caller, request);
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
    const revision = await this.revisionFor(0, checkedRevision);
    if (this.snapshots.loaded?.() === false) {
      // A cold container reads the feature's text from its environment's stored answer (ADR 25) rather than decode every feature.
      const base = await this.payloadAt(this.storedScopeOf(query.environment), revision);
      if (base.stored) {
        // The scope's rule first, from the manifest: a feature the caller may not see unpacks nothing.
        const fragment = servesIn(base.stored.scope, name, query) ? base.chunked.fragmentOf(name) : undefined;
        if (fragment === undefined) throw new NotFound(`Could not find feature toggle ${name}`);
        const segmentsById = new Map(base.stored.scope.segments.map((segment) => [segment.id, segment]));
        return JSON.parse(query.inlineSegmentConstraints ? inlinedFragment(fragment, segmentsById) : fragment) as ClientFeature;
      }
    }
    const snapshot = await this.snapshots.at(revision);
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
    const { query, key } = resolvedScopeOf(caller, request);
    const held = deltaRevisionNamedIn(ifNoneMatch);
    const revision = await this.revisionFor(held ?? 0, checkedRevision);
    if (held === revision) return { modified: false, etag: deltaEtag(revision) };
    if (held !== undefined && held < revision) {
      const snapshot = await this.snapshots.at(revision);
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
    // Shared by every poll of the scope meanwhile: built as no request's, so it never carries the
    // deadline of whichever caller started it (the SDK groups have none; a caller with one must
    // not fail the polls that joined it).
    const built = outsideRequest(() => this.build(scope, revision)).finally(() => this.building.delete(buildKey));
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
    const etag = etagOf(scope.hash, revision);
    const meta = { revisionId: revision, etag, queryHash: scope.hash };
    const previous = this.payloads.get(scope.key);
    if (!previous || previous.stored) {
      // A cold container's answers (ADR 25): the stored chunks, or the ones derived from them for a
      // narrower scope, then the changes since spliced in, without decoding a feature the change log does not name.
      const stored = previous?.stored || isStoredScope(scope.query)
        ? await this.snapshots.storedScope(scope.query.environment, revision, previous?.stored)
        : await this.derivedAnswer(scope.query, revision);
      if (stored) {
        const segments = storedScopeSegmentsText(stored.scope);
        const gzipped = stored.scope.chunked.gzip(PAYLOAD_HEAD, payloadTail(segments, scope.query, meta));
        // No snapshot of this process built it: if a change cannot be spliced, the scope is built from the snapshot.
        return this.keep(scope, servedBytes(revision, etag, gzipped, { snapshotVersion: NO_SNAPSHOT, chunked: stored.scope.chunked, segmentsText: segments, stored }));
      }
    }
    const snapshot = await this.snapshots.at(revision);
    const index = featuresByName(snapshot);
    const fragmentOf = (name: string): string | undefined => {
      const feature = index.get(name);
      return feature && isServed(feature, scope.query) ? featureText(feature, scope.query, snapshot.segmentsById) : undefined;
    };
    const steps = previous ? stepsSince(snapshot, previous.snapshotVersion) : undefined;
    const reusable = previous && steps && !(steps.segments && scope.query.inlineSegmentConstraints);
    const chunked =
      (reusable ? previous.chunked.updated(steps.names, fragmentOf) : undefined) ??
      ChunkedPayload.build(selectFeatures(snapshot.features, scope.query).map((feature) => feature.name), fragmentOf);
    const segments = segmentsText(snapshot, scope.query);
    const gzipped = chunked.gzip(PAYLOAD_HEAD, payloadTail(segments, scope.query, meta));
    return this.keep(scope, servedBytes(revision, etag, gzipped, { snapshotVersion: snapshot.version, chunked, segmentsText: segments }));
  }

  /** The stored answer of `query`'s environment at `revision`, narrowed to `query` (its projects, prefix, tags, segments inlined); undefined when this container builds from the snapshot. */
  private async derivedAnswer(query: ClientQuery, revision: number): Promise<StoredScopeReading | undefined> {
    if (this.snapshots.loaded?.() !== false) return undefined;
    const base = (await this.payloadAt(this.storedScopeOf(query.environment), revision)).stored;
    const scope = base && derivedScope(base.scope, query);
    return scope && { ...base, scope };
  }

  private storedScopeOf(environment: string): Scope {
    const query = storedScopeQuery(environment);
    const key = scopeKeyOf(query);
    return { query, key, hash: this.shortHash(key) };
  }

  /** Caches a built payload unless a newer one is there: a slower build of an older revision must not replace it. */
  private keep(scope: Scope, payload: CachedPayload): CachedPayload {
    const latest = this.payloads.get(scope.key);
    if (!latest || latest.revision < payload.revision) this.payloads.set(scope.key, payload);
    return payload;
  }

  /**
   * The scheduled writer's step (functions/sdk-snapshot): stores the snapshot when the stored one
   * needs replacing (REWRITE_POLICY); a warm writer reads only what changed since its last one.
   */
  storeSnapshot(now?: Date): Promise<StoreOutcome> {
    return this.snapshots.store(now);
  }

  /**
   * Which of `names` the caller's SDK is served at the current revision, by the payload's own
   * scope rules (the token's projects, no archived feature) without an SDK's optional filters:
   * what a token may record metrics for. It costs what a poll costs, the shared revision check
   * and snapshot, and then a lookup per name, never a read per report.
   */
  async servedNames(caller: Caller, request: ClientRequest, names: readonly string[]): Promise<Set<string>> {
    const query = { ...resolveQuery(caller, request), namePrefix: undefined, tags: undefined };
    const revision = await this.clock.current();
    const own = scopeKeyOf(query);
    if (this.payloads.get(own)?.stored) {
      // A scope answered from a stored answer or one derived from it: its names are its chunks'.
      const payload = await this.payloadAt({ query, key: own, hash: this.shortHash(own) }, revision);
      if (payload.stored) return new Set(names.filter((name) => payload.chunked.serves(name)));
    }
    if (!query.projects) {
      // Every project: what the environment's stored scope serves (every feature not archived). A
      // cold container answering it from the stored answer (ADR 25) then decodes no snapshot for metrics.
      const scopeQuery = storedScopeQuery(query.environment);
      const key = scopeKeyOf(scopeQuery);
      if (this.payloads.get(key)?.stored) {
        const payload = await this.payloadAt({ query: scopeQuery, key, hash: this.shortHash(key) }, revision);
        if (payload.stored) return new Set(names.filter((name) => payload.chunked.serves(name)));
      }
    }
    const index = featuresByName(await this.snapshots.at(revision));
    return new Set(names.filter((name) => {
      const feature = index.get(name);
      return feature !== undefined && isServed(feature, query);
    }));
  }
}

/** Stored bytes whose JSON text is only made (from the gzip) when a caller without gzip asks. */
function servedBytes<T extends object>(revision: number, etag: string, { gzip, jsonBytes, quotedJsonBytes }: GzipPayload, extra: T): ServedPayload & T {
  const gzipBase64 = gzip.toString('base64');
  let json: string | undefined;
  return {
    ...extra,
    revision,
    etag,
    gzipBase64,
    jsonBytes,
    quotedJsonBytes,
    // Only the base64 text is kept (the cache weighs it); the rare caller without gzip decodes it.
    // The text's size is known, so it is inflated into one buffer of that size rather than in
    // 16 KB pieces joined at the end (at 50,000 flags, 50 MB: 240 ms of CPU against 140). One
    // byte more than the text: zlib allocates a further chunk whenever its output fills exactly,
    // before it sees the end of the stream, so a buffer of the text's own size costs two.
    get json() {
      json ??= gunzipSync(Buffer.from(gzipBase64, 'base64'), { chunkSize: Math.max(constants.Z_MIN_CHUNK, jsonBytes + 1) }).toString('utf8');
      return json;
    },
  };
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
