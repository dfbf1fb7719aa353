import { randomUUID } from 'node:crypto';
import type { FeatureStore } from '../features/store.js';
import type { ChangeLogEntry, RevisionState } from '../revision.js';
import type { SegmentStore } from '../segments/store.js';
import { log } from '../log.js';
import type { ClientSnapshot } from './payload.js';
import type { RevisionClock } from './revision-clock.js';
import type { Segment } from '../segments/model.js';
import type { ChunkedPayload } from './payload-bytes.js';
import { factsOf, stepsSince, type FeatureFacts, type VersionedSnapshot } from './snapshot.js';
import { decodeSnapshot, encodeSnapshot, needsRewrite, STORED_SCOPES_FORMAT, STORED_SNAPSHOT_FORMAT, type StoredScopePages, type StoredSnapshotHead, type StoredSnapshotStore } from './stored-snapshot.js';
import { buildStoredScope, decodeScope, encodeScope, environmentsOf, splicedScope, type StoredScope } from './stored-scopes.js';
import { outsideRequest } from '../request-deadline.js';

/** What changed between two readings of the revision (lib/store/revision-store.ts). */
export interface ChangeLog {
  changesSince(from: RevisionState['shards'], to: RevisionState['shards']): Promise<ChangeLogEntry[] | undefined>;
}

/** How many steps a snapshot remembers: a scope further behind is built whole. */
const REMEMBERED_STEPS = 64;

/** A stored scope's answer and the revision reading it holds every write of (ADR 25). */
export interface StoredScopeReading {
  revision: number;
  shards: ReadonlyMap<string, number>;
  scope: StoredScope;
}

/** What the scheduled writer did: wrote a new stored snapshot, found one recent enough, or lost to a newer one. */
export type StoreOutcome = 'written' | 'recent' | 'superseded';

/**
 * This process's snapshot of every feature and segment, kept at the revision asked for: the SDK
 * payloads and deltas are built from it (features-service.ts), and the admin read model reads it
 * (feature-read-model.ts). One per process, so a process serving both keeps one copy and one
 * change-log position. The first snapshot comes from the stored one (ADR 20) or a whole read;
 * after that only what the change log names is read again (ADR 16).
 */
export class FeatureSnapshots {
  private snapshot: { state: RevisionState; data: Promise<VersionedSnapshot> } | undefined;
  private snapshotVersions = 0;
  /** The writer's last stored scopes by environment, and the snapshot version they were built at. */
  private readonly writerScopes = new Map<string, { version: number; chunked: ChunkedPayload }>();

  /** `stored`: the stored snapshot a cold process starts from and the scheduled writer replaces; without it, a cold process reads every feature. */
  constructor(
    private readonly featureStore: Pick<FeatureStore, 'listAll' | 'getMany'>,
    private readonly segmentStore: Pick<SegmentStore, 'list'>,
    private readonly clock: Pick<RevisionClock, 'state'>,
    private readonly changeLog: ChangeLog,
    private readonly stored?: StoredSnapshotStore,
  ) {}

  /**
   * Every feature and segment at `revision` or later, shared by all queries and concurrent
   * requests. The first comes from the stored snapshot and the changes since (ADR 20), or is read
   * whole; after that only what the change log names (ADR 16): the features changed since, the
   * segments if they changed, or everything when the log cannot tell. Reads follow the revision
   * read, so they hold at least every write up to it.
   */
  at(revision: number): Promise<VersionedSnapshot> {
    if (this.snapshot && this.snapshot.state.revision >= revision) return this.snapshot.data;
    const previous = this.snapshot;
    // Shared by every caller until it is superseded, SDK polls included, which have no deadline:
    // read as no request's, so the request that started it cannot fail the others' answers by
    // running out of time mid-read (a cold container's paginated read of every feature).
    const statePromise = outsideRequest(() => this.clock.state(revision));
    const data = outsideRequest(() =>
      statePromise.then(
        async (state): Promise<VersionedSnapshot> =>
          (previous ? await this.updated(await previous.data.catch(() => undefined), state) : await this.fromStored(state)) ??
          (await this.readWhole(state)),
      ),
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
      if (holdsReading(head.shards, state.shards)) return { ...base, revision: state.revision, shards: state.shards };
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
  async store(now: Date = new Date()): Promise<StoreOutcome> {
    const stored = this.stored;
    if (!stored) throw new Error('no store for the SDK snapshot');
    const [state, head] = await Promise.all([this.clock.state(), stored.head()]);
    const entries = head && head.revision < state.revision ? await this.changeLog.changesSince(head.shards, state.shards) : [];
    if (!needsRewrite(head, state.revision, featuresNamedIn(entries)?.size, now.getTime())) return 'recent';
    const snapshot = await this.at(state.revision);
    const segments = [...snapshot.segmentsById.values()];
    const pages = encodeSnapshot({ features: snapshot.features, segments });
    const scopes = new Map<string, StoredScopePages>();
    const all = [...pages];
    for (const environment of environmentsOf(snapshot.features)) {
      const scopePages = encodeScope(this.writerScope(environment, snapshot, segments));
      scopes.set(environment, { first: all.length, count: scopePages.length, bytes: scopePages.reduce((sum, page) => sum + page.length, 0) });
      all.push(...scopePages);
    }
    const written = await stored.save({
      id: randomUUID(), format: STORED_SNAPSHOT_FORMAT, revision: snapshot.revision, shards: snapshot.shards,
      pages: pages.length, bytes: pages.reduce((sum, page) => sum + page.length, 0), writtenAt: now.toISOString(), scopes, scopesFormat: STORED_SCOPES_FORMAT,
    }, all);
    return written ? 'written' : 'superseded';
  }

  /** The writer's stored scope of `environment` at `snapshot`: only the chunks of what changed since its last one are built again. */
  private writerScope(environment: string, snapshot: VersionedSnapshot, segments: readonly Segment[]): StoredScope {
    const previous = this.writerScopes.get(environment);
    const steps = previous ? stepsSince(snapshot, previous.version) : undefined;
    const scope = buildStoredScope(environment, snapshot.features, segments, previous?.chunked, steps?.names);
    this.writerScopes.set(environment, { version: snapshot.version, chunked: scope.chunked });
    return scope;
  }

  /**
   * A cold container's answer for a stored scope at `revision` (ADR 25), without decoding the
   * snapshot: the stored chunks when the head holds that reading, else spliced with the features
   * the change log names since, and the segments read again when it names a segment change.
   * Undefined (build as before) when there is no stored scope of `environment`, a page is missing,
   * the log cannot tell, or a segment changed under an answer that inlines them. `from`: an
   * answer this container served before (the stored one's, or one derived from it), followed the same way instead of the stored one.
   */
  async storedScope(environment: string, revision: number, from?: StoredScopeReading): Promise<StoredScopeReading | undefined> {
    const stored = this.stored;
    if (!stored) return undefined;
    try {
      const [state, head] = await Promise.all([this.clock.state(revision), from ? undefined : stored.head()]);
      const usable = head && head.format === STORED_SNAPSHOT_FORMAT && head.scopesFormat === STORED_SCOPES_FORMAT && head.scopes.has(environment);
      if (!from && !usable) return undefined;
      const shards = from?.shards ?? (head as StoredSnapshotHead).shards;
      let names: ReadonlySet<string> = new Set();
      let segmentsChanged = false;
      if (!holdsReading(shards, state.shards)) {
        const entries = await this.changeLog.changesSince(shards, state.shards);
        const named = featuresNamedIn(entries);
        if (!named) return undefined;
        segmentsChanged = entries?.some(({ change }) => 'segments' in change && change.segments === true) ?? false;
        if (segmentsChanged && from?.scope.query.inlineSegmentConstraints) return undefined;
        names = named;
      }
      const [read, changed, segments] = await Promise.all([
        from ? from.scope : stored.scopePages(head as StoredSnapshotHead, environment).then((pages) => pages && decodeScope(pages)),
        names.size > 0 ? this.featureStore.getMany([...names]) : [],
        // Listed by id, a segment's change alters only the list, read after the revision like the features.
        segmentsChanged ? this.segmentStore.list() : undefined,
      ]);
      if (!read) return undefined;
      const scope = segments ? { ...read, segments } : read;
      if (names.size === 0) return { revision: state.revision, shards: segments ? state.shards : shards, scope };
      const spliced = splicedScope(scope, names, changed);
      // Read after the revision read, the changed features hold every write up to `state`: it is the reading they answer.
      return spliced && { revision: state.revision, shards: state.shards, scope: spliced };
    } catch (error) {
      log.warn('stored SDK scope not usable; building it', { error: String(error) });
      return undefined;
    }
  }

  /** Whether this process holds a snapshot (or is reading one): a cold process does not until a path needs every feature. */
  loaded(): boolean {
    return this.snapshot !== undefined;
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
}

/** Whether a snapshot read at `held` holds every write up to `reading`: shard by shard, not by their sums (two readings can have equal sums and different shards). */
function holdsReading(held: ReadonlyMap<string, number>, reading: ReadonlyMap<string, number>): boolean {
  return [...reading].every(([shard, value]) => value <= (held.get(shard) ?? 0));
}

/** The features the change-log entries name, or undefined when they cannot tell (missing entries, or an "everything" change). */
function featuresNamedIn(entries: ChangeLogEntry[] | undefined): Set<string> | undefined {
  if (!entries || entries.some(({ change }) => 'everything' in change)) return undefined;
  return new Set(entries.flatMap(({ change }) => ('features' in change ? change.features : [])));
}

type SnapshotFeature = ClientSnapshot['features'][number];
const nameIndexes = new WeakMap<ClientSnapshot, ReadonlyMap<string, SnapshotFeature>>();

/** A snapshot's features by name, built once per revision (E18 and the metrics path look names up). */
export function featuresByName(snapshot: ClientSnapshot): ReadonlyMap<string, SnapshotFeature> {
  let index = nameIndexes.get(snapshot);
  if (!index) {
    index = new Map(snapshot.features.map((feature) => [feature.name, feature]));
    nameIndexes.set(snapshot, index);
  }
  return index;
}
