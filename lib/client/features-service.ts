import { NotFound } from '../errors.js';
import type { FeatureStore } from '../features/store.js';
import type { SegmentStore } from '../segments/store.js';
import type { Caller } from '../tokens/model.js';
import { BoundedCache } from './bounded-cache.js';
import { buildClientPayload, isServed, toClientFeature, type ClientFeature, type ClientSnapshot } from './payload.js';
import { queryHash, resolveQuery, type ClientRequest } from './query.js';

/** The revision item: every write that SDKs can see moves it on, in the same transaction. */
export interface RevisionReader {
  /** Strongly consistent, so a poll after an acknowledged write sees that write. */
  current(): Promise<number>;
}

export type FeaturesAnswer =
  | { modified: false; etag: string }
  | { modified: true; etag: string; json: string };

interface CachedPayload {
  revision: number;
  json: string;
}

/** Distinct resolved queries (token scope × filters × segment mode) kept serialized per process. */
export const PAYLOAD_CACHE_ENTRIES = 50;

/**
 * The SDK read path (DESIGN §3). Each poll reads the revision item once; with the SDK's
 * If-None-Match equal to the ETag that is the whole cost (304). Otherwise the serialized payload
 * of that query at that revision is reused, and only when the revision moved are the features
 * and segments read again, once per revision for every query.
 */
export class ClientFeatureService {
  private readonly payloads = new BoundedCache<string, CachedPayload>(PAYLOAD_CACHE_ENTRIES);
  private snapshot: { revision: number; data: Promise<ClientSnapshot> } | undefined;

  constructor(
    private readonly featureStore: Pick<FeatureStore, 'listAll'>,
    private readonly segmentStore: Pick<SegmentStore, 'list'>,
    private readonly revisions: RevisionReader,
  ) {}

  /** E17: the payload as JSON text, or "not modified" when the SDK already has this ETag. */
  async features(caller: Caller, request: ClientRequest, ifNoneMatch: string | undefined): Promise<FeaturesAnswer> {
    const query = resolveQuery(caller, request);
    const hash = queryHash(query);
    const revision = await this.revisions.current();
    const etag = `"${hash}:${revision}"`;
    if (ifNoneMatch === etag) return { modified: false, etag };
    const cached = this.payloads.get(hash);
    if (cached?.revision === revision) return { modified: true, etag, json: cached.json };
    const snapshot = await this.snapshotAt(revision);
    const json = JSON.stringify(buildClientPayload(snapshot, query, { revisionId: revision, etag, queryHash: hash }));
    // A slower request that read an older revision must not replace a newer entry.
    const latest = this.payloads.get(hash);
    if (!latest || latest.revision < revision) this.payloads.set(hash, { revision, json });
    return { modified: true, etag, json };
  }

  /**
   * E18: one feature in the same scope, filtered by exact name instead of `namePrefix`.
   * Missing, archived and out-of-scope features all answer the same 404.
   */
  async feature(caller: Caller, request: ClientRequest, name: string): Promise<ClientFeature> {
    const query = { ...resolveQuery(caller, request), namePrefix: undefined };
    const snapshot = await this.snapshotAt(await this.revisions.current());
    const feature = snapshot.features.find((candidate) => candidate.name === name);
    if (!feature || !isServed(feature, query)) throw new NotFound(`Could not find feature toggle ${name}`);
    return toClientFeature(feature, query, snapshot.segmentsById);
  }

  /**
   * Every feature and segment, read once per revision and shared by all queries. The reads
   * follow the revision read, so they hold at least every write up to that revision; concurrent
   * requests at the same revision share one read.
   */
  private snapshotAt(revision: number): Promise<ClientSnapshot> {
    if (this.snapshot && this.snapshot.revision >= revision) return this.snapshot.data;
    const data = Promise.all([this.featureStore.listAll(), this.segmentStore.list()]).then(([features, segments]) => ({
      features,
      segmentsById: new Map(segments.map((segment) => [segment.id, segment])),
    }));
    const entry = { revision, data };
    this.snapshot = entry;
    data.catch(() => {
      if (this.snapshot === entry) this.snapshot = undefined;
    });
    return data;
  }
}
