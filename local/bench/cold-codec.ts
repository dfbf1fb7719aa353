/**
 * A cold SDK container's CPU at N flags in-process (issue 29, item 4), without DynamoDB: the
 * bench's flag shape (local/bench/seed.ts) built in memory with random strategy ids, the stored
 * snapshot kept in memory, so that only our code's CPU is measured even on a loaded machine.
 * Read and write units are computed from the items' sizes as DynamoDB bills them (strongly
 * consistent reads: 4 KB a unit; writes: 1 KB). `local/bench/cold-start.ts` measures the same
 * through the AWS-like engine, seeding through the admin API (minutes at 50,000 flags).
 *
 *   NODE_OPTIONS=--expose-gc npx tsx local/bench/cold-codec.ts --flags 50000
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { encodeSnapshot, type StoredSnapshotHead, type StoredSnapshotStore } from '../../lib/client/stored-snapshot.js';
import type { Feature } from '../../lib/features/model.js';
import type { ChangeLogEntry, RevisionState } from '../../lib/revision.js';
import type { Segment } from '../../lib/segments/model.js';
import type { Caller } from '../../lib/tokens/model.js';
import { APPS, flagName, rolloutStrategy } from './seed.js';
import { FrontendService } from '../../lib/frontend/service.js';
import { OfrepService } from '../../lib/ofrep/service.js';

const { values } = parseArgs({ args: process.argv.slice(2), strict: true, options: { flags: { type: 'string', default: '10000' } } });
const flags = Number(values.flags);
if (!Number.isInteger(flags) || flags < 10) throw new Error(`--flags must be a whole number ≥ 10, not ${values.flags}`);

const SEGMENT: Segment = {
  id: 1, name: 'beta-testers', description: null, project: null, createdAt: '2026-11-01T00:00:00.000Z', createdBy: null,
  constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-'], caseInsensitive: false, inverted: false }],
} as Segment;

/** The flags' projects: a project-scoped token is served a fifth of them. */
const PROJECTS = ['default', 'checkout', 'catalog', 'search', 'payments'];

/** Flag `index` as the bench seeds it: one or two rollout strategies in development, a tag, production off. */
function benchFlag(index: number, description = `${APPS[index % APPS.length]} change #${index}, rolled out gradually`): Feature {
  const name = flagName(index);
  const strategy = (sortOrder: number, body: ReturnType<typeof rolloutStrategy> | Record<string, unknown>) => ({
    id: randomUUID(), title: null, disabled: false, sortOrder, segments: [], variants: [], constraints: [], ...(body as Record<string, unknown>),
  });
  const strategies = [strategy(0, rolloutStrategy(name, index, SEGMENT.id))];
  if (index % 2 === 0) {
    strategies.push(strategy(1, {
      name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: name },
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`user-${index}`, `user-${index + 1}`, `user-${index + 2}`], caseInsensitive: false, inverted: false }],
    }));
  }
  return {
    name, project: PROJECTS[index % PROJECTS.length], type: 'release', description, impressionData: index % 4 === 0, stale: false, archived: false, archivedAt: null,
    createdAt: '2026-11-01T00:00:00.000Z', createdBy: { id: 1, name: 'admin' }, tags: [{ type: 'simple', value: `team-${APPS[index % APPS.length]}` }],
    dependencies: [], children: [], links: [], lifecycle: [{ stage: 'initial', enteredAt: '2026-11-01T00:00:00.000Z' }], version: 3,
    environments: {
      development: { enabled: true, variants: [], strategies },
      production: { enabled: false, variants: [], strategies: [] },
    },
  } as unknown as Feature;
}

/** The table's state in memory: every feature, a revision on one shard, and the change log. */
const features = new Map(Array.from({ length: flags }, (_, index) => [flagName(index), benchFlag(index)]));
let revision = 1;
const log: ChangeLogEntry[] = [];
const state = (): RevisionState => ({ revision, tokenChanges: 0, shards: new Map([['0', revision]]) });
const change = (index: number, description: string) => {
  features.set(flagName(index), benchFlag(index, description));
  revision += 1;
  log.push({ shard: '0', revision, change: { features: [flagName(index)] } } as ChangeLogEntry);
};
const clock = { state: async () => state(), current: async () => revision };
const changeLog = { changesSince: async (from: ReadonlyMap<string, number>) => log.filter((entry) => entry.revision > (from.get('0') ?? 0)) };
const counts = { readUnits: 0, wholeReads: 0 };
// A BatchGetItem's strongly consistent read units: each item's size rounded up to 4 KB.
const featureStore = {
  listAll: async () => ((counts.wholeReads += 1), [...features.values()]),
  getMany: async (names: string[]) => names.flatMap((name) => {
    const feature = features.get(name);
    if (feature) counts.readUnits += units(JSON.stringify(feature).length + 60, 4096);
    return feature ?? [];
  }),
};
let segments: Segment[] = [SEGMENT];
const segmentStore = { list: async () => segments };

/** The stored snapshot's items in memory; `withScopes: false` serves a head as written before ADR 25. */
const items = { head: undefined as StoredSnapshotHead | undefined, pages: [] as Buffer[] };
const units = (bytes: number, per: number) => Math.ceil(bytes / per);
const storeOf = (withScopes: boolean): StoredSnapshotStore => ({
  head: async () => {
    counts.readUnits += 1;
    return items.head && (withScopes ? items.head : { ...items.head, scopes: new Map() });
  },
  pages: async (head) => read(0, head.pages),
  scopePages: async (head, environment) => {
    const where = head.scopes.get(environment);
    return where && read(where.first, where.count);
  },
  save: async (head, pages) => ((items.head = head), (items.pages = [...pages]), true),
});
const read = (first: number, count: number) => {
  const pages = items.pages.slice(first, first + count);
  for (const page of pages) counts.readUnits += units(page.length + 60, 4096);
  return pages;
};

/** Run with NODE_OPTIONS=--expose-gc: the garbage of the measurement before (a decoded snapshot is hundreds of MB at 50,000 flags) is then collected before each, not charged to the next. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const cpu = async <T>(work: () => Promise<T>) => {
  collectGarbage();
  const before = process.cpuUsage();
  const reads = counts.readUnits;
  const value = await work();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000, readUnits: counts.readUnits - reads };
};
const caller: Caller = { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] };
const sdk = { clientSpec: '5.2.0' };
const container = (withScopes: boolean) => new ClientFeatureService(new FeatureSnapshots(featureStore, segmentStore, clock, changeLog, storeOf(withScopes)), clock);
const poll = async (service: ClientFeatureService) => {
  const answer = await service.features(caller, sdk, undefined);
  if (!answer.modified) throw new Error('expected a payload');
  return answer.payload;
};

console.log(`\n## A cold SDK container at ${flags.toLocaleString('en')} flags, in-process (${JSON.stringify([...features.values()]).length.toLocaleString('en')} bytes of feature JSON)\n`);
const writerSnapshots = new FeatureSnapshots(featureStore, segmentStore, clock, changeLog, storeOf(true));
await writerSnapshots.at(revision);
// What the writer did before ADR 25: the snapshot's encoding alone.
const snapshotOnly = await cpu(async () => encodeSnapshot({ features: [...features.values()], segments: [SEGMENT] }));
const writer = await cpu(() => writerSnapshots.store());
const head = items.head as StoredSnapshotHead;
const writeUnits = items.pages.reduce((sum, page) => sum + units(page.length + 60, 1024), 0) + 1;
const scopeBytes = [...head.scopes.values()].reduce((sum, scope) => sum + scope.bytes, 0);
console.log(`- the writer (${writer.value}, on a warm container): ${writer.ms.toFixed(0)} ms CPU, ${writeUnits.toLocaleString('en')} write units, ${items.pages.length} pages: the snapshot ${head.pages} pages, ${head.bytes.toLocaleString('en')} bytes; ${head.scopes.size} stored scopes ${scopeBytes.toLocaleString('en')} bytes (the snapshot's encoding alone, all it did before ADR 25: ${snapshotOnly.ms.toFixed(0)} ms)`);

const before = await cpu(() => poll(container(false)));
console.log(`- cold container, the snapshot decoded and the payload built (before ADR 25): ${before.ms.toFixed(0)} ms CPU, ${before.readUnits} read units, ${before.value.gzipBase64.length.toLocaleString('en')} base64 bytes`);
const after = await cpu(() => poll(container(true)));
console.log(`- cold container from the stored scope: ${after.ms.toFixed(0)} ms CPU, ${after.readUnits} read units; the same bytes: ${after.value.gzipBase64 === before.value.gzipBase64}`);

change(7, 'changed after the stored snapshot');
const behindBefore = await cpu(() => poll(container(false)));
const behind = container(true);
const behindAfter = await cpu(() => poll(behind));
console.log(`- cold container, one change behind: ${behindBefore.ms.toFixed(0)} ms CPU and ${behindBefore.readUnits} read units before, ${behindAfter.ms.toFixed(0)} ms and ${behindAfter.readUnits} from the stored scope; the same text: ${behindAfter.value.json === behindBefore.value.json}`);
change(8, 'a second change');
const next = await cpu(() => poll(behind));
console.log(`- the same container, the next change: ${next.ms.toFixed(0)} ms CPU; whole reads in all: ${counts.wholeReads} (the writer's first)`);

/**
 * The other paths a cold container serves (issue 29, item 4): each on a new container, two
 * changes after the stored snapshot, against a container that decodes the snapshot (the head as
 * written before ADR 25, so no stored answer is used): its CPU and read units, and whether the answer is the same text.
 */
type Answerer = (service: ClientFeatureService, userId?: string) => Promise<string>;
const textOf = async (answer: Promise<Awaited<ReturnType<ClientFeatureService['features']>>>) => {
  const served = await answer;
  if (!served.modified) throw new Error('expected a payload');
  return served.payload.json;
};
const projectCaller: Caller = { ...caller, projects: ['checkout'] };
const frontendCaller: Caller = { tokenName: 'web', type: 'frontend', environment: 'development', projects: ['*'] };
const context = (userId = 'user-12') => ({ userId, sessionId: `session-of-${userId}`, appName: 'checkout' });
const fixedNow = () => new Date('2026-11-28T00:00:00.000Z');
const paths: [string, Answerer][] = [
  ['unfiltered, every project (the stored answer itself)', (service) => textOf(service.features(caller, sdk, undefined))],
  ['project-scoped token (one project of five)', (service) => textOf(service.features(projectCaller, sdk, undefined))],
  ['name prefix filter', (service) => textOf(service.features(caller, { ...sdk, namePrefix: 'bench-flag-0001' }, undefined))],
  ['tag filter', (service) => textOf(service.features(caller, { ...sdk, tags: [{ type: 'simple', value: 'team-search' }] }, undefined))],
  ['SDK inlining segments (spec 4.1.0)', (service) => textOf(service.features(caller, { clientSpec: '4.1.0' }, undefined))],
  ['E18, one feature', async (service) => JSON.stringify(await service.feature(caller, sdk, flagName(42)))],
  ['delta API, the revision before', async (service) => {
    const answer = await service.delta(caller, sdk, `"${revision - 1}"`);
    return answer.modified ? ('events' in answer ? answer.events : answer.payload.json) : answer.etag;
  }],
  ['delta API, a revision older than the stored snapshot', async (service) => {
    const answer = await service.delta(caller, sdk, '"1"');
    return answer.modified ? ('events' in answer ? answer.events : answer.payload.json) : answer.etag;
  }],
  ['Frontend API, every project', async (service, userId) => (await new FrontendService(service).toggles(frontendCaller, context(userId), '127.0.0.1')).json],
  ['Frontend API, one project', async (service, userId) => (await new FrontendService(service).toggles({ ...frontendCaller, projects: ['checkout'] }, context(userId), '127.0.0.1')).json],
  ['OFREP, every flag', async (service, userId = 'user-12') => {
    const answer = await new OfrepService(service, { count: async () => undefined }, fixedNow).evaluateAll(caller, { context: { targetingKey: userId } }, '127.0.0.1', undefined);
    return answer.modified ? answer.json : answer.etag;
  }],
];
const measurePaths = async (when: string) => {
  console.log(`\n### ${when}\n\n| path | decoding the snapshot: CPU, read units | now: CPU, read units | same answer | the same container again, another user |\n| --- | --- | --- | --- | --- |`);
  for (const [label, answer] of paths) {
    const reference = await cpu(() => answer(container(false)));
    const service = container(true);
    const measured = await cpu(() => answer(service));
    // The Frontend API and OFREP evaluate every flag for a new context: that part is each request's, warm or cold.
    const again = await cpu(() => answer(service, 'user-13'));
    console.log(`| ${label} | ${reference.ms.toFixed(0)} ms, ${reference.readUnits} | ${measured.ms.toFixed(0)} ms, ${measured.readUnits} | ${measured.value === reference.value} | ${again.ms.toFixed(0)} ms |`);
  }
};
await measurePaths('Two changes after the stored snapshot');
segments = [{ ...SEGMENT, constraints: [...SEGMENT.constraints, { contextName: 'appName', operator: 'IN', values: ['checkout'], caseInsensitive: false, inverted: false }] } as Segment];
revision += 1;
log.push({ shard: '0', revision, change: { features: [], segments: true } } as ChangeLogEntry);
await measurePaths('After a segment change since the stored snapshot');
