import { describe, expect, it } from 'vitest';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import type { VersionedSnapshot } from '../../lib/client/snapshot.js';
import { RevisionClock } from '../../lib/client/revision-clock.js';
import type { ChangeEvent } from '../../lib/events/model.js';
import { SettledMonths } from '../../lib/events/settled-months.js';
import { MaintenanceService } from '../../lib/maintenance/service.js';
import { currentDeadline, runWithDeadline } from '../../lib/request-deadline.js';
import type { RevisionState } from '../../lib/revision.js';
import { TokenAuthenticator } from '../../lib/tokens/authenticator.js';
import { hashSecret, type ApiToken } from '../../lib/tokens/model.js';

/**
 * A read shared by every caller that comes while it runs must not carry the deadline of the
 * request that happened to start it: locally, a DynamoDB call made after its request's time is
 * over is refused (lib/store/local-request-queue.ts), and every waiter, SDK polls included,
 * would get that request's 503. Each store below refuses the same way, and holds its read until
 * the test lets it go, so the second caller joins the read the first one started.
 */
function heldStore() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const startedOnce = new Promise<void>((resolve) => (started = resolve));
  const calls = { count: 0 };
  const read = async <T>(answer: T): Promise<T> => {
    calls.count += 1;
    started();
    await released;
    const deadline = currentDeadline();
    if (deadline !== undefined && deadline <= Date.now()) throw new Error('The request ran out of time; this call was not sent.');
    return answer;
  };
  return { read, release, started: startedOnce, calls };
}

/**
 * `call` made first by a request whose time is over (its answer meets the chain's early answer,
 * never a client), then by a caller without a deadline, as an SDK poll is; answers the second's.
 */
async function joinedByCallerWithoutDeadline<T>(store: ReturnType<typeof heldStore>, call: () => Promise<T>): Promise<T> {
  const stopped = runWithDeadline(Date.now() - 1, call);
  stopped.catch(() => undefined);
  await store.started;
  const joined = call();
  store.release();
  await Promise.allSettled([stopped]);
  return joined;
}

const state: RevisionState = { revision: 7, tokenChanges: 0, shards: new Map([['shard', 7]]) };

describe('reads shared by many callers', () => {
  it('the revision clock’s read answers the callers that joined it, whatever the deadline of the one that started it', async () => {
    const store = heldStore();
    const clock = new RevisionClock({ read: () => store.read(state) }, { checkIntervalMs: 60_000, now: () => 0 });
    expect((await joinedByCallerWithoutDeadline(store, () => clock.state())).revision).toBe(7);
    expect(store.calls.count).toBe(1);
  });

  it('the feature snapshot’s first read answers every caller at its revision', async () => {
    const store = heldStore();
    const snapshots = new FeatureSnapshots(
      { listAll: () => store.read([]), getMany: () => Promise.resolve([]) },
      { list: () => Promise.resolve([]) },
      { state: () => Promise.resolve(state) },
      { changesSince: () => Promise.resolve(undefined) },
    );
    const snapshot = await joinedByCallerWithoutDeadline(store, () => snapshots.at(7));
    expect(snapshot.revision).toBe(7);
    expect(store.calls.count).toBe(1);
  });

  it('a month of the event log is read once for the callers that wait for it', async () => {
    const store = heldStore();
    const event: ChangeEvent = { id: 'e1', type: 'feature-created', createdAt: '2020-01-15T00:00:00.000Z', createdBy: 'test' };
    const months = new SettledMonths(
      { between: () => store.read([event]), ofFeature: () => Promise.resolve([]), newestFirst: async function* () {} },
      () => new Date('2021-01-01T00:00:00.000Z'),
    );
    const events = await joinedByCallerWithoutDeadline(store, () => months.between(new Date('2020-01-01T00:00:00.000Z'), new Date('2020-02-01T00:00:00.000Z')));
    expect(events).toEqual([event]);
    // The waiter took the month the first read kept, rather than reading it again.
    expect(store.calls.count).toBe(1);
  });

  it('the maintenance flag’s read answers every change that waits for it', async () => {
    const store = heldStore();
    const maintenance = new MaintenanceService({ read: () => store.read(true), write: () => Promise.resolve() }, () => new Date(0));
    expect(await joinedByCallerWithoutDeadline(store, () => maintenance.isOn())).toBe(true);
    expect(store.calls.count).toBe(1);
  });

  it('a token’s lookup answers every request with the same secret', async () => {
    const store = heldStore();
    const token: ApiToken = {
      secretHash: hashSecret('*:development.secret'), tokenId: 'id', secretHint: '*:development', tokenName: 'sdk',
      type: 'client', environment: 'development', projects: ['*'], createdAt: '2020-01-01T00:00:00.000Z', expiresAt: null,
    } as ApiToken;
    const tokens = new TokenAuthenticator({ findByHash: () => store.read(token) }, '', { ttlMs: 60_000 }, () => new Date(0));
    const { caller } = await joinedByCallerWithoutDeadline(store, () => tokens.authenticate('*:development.secret'));
    expect(caller.tokenName).toBe('sdk');
    expect(store.calls.count).toBe(1);
  });

  it('an SDK payload’s build answers every poll of the scope that waits for it', async () => {
    const store = heldStore();
    const snapshot: VersionedSnapshot = { features: [], segmentsById: new Map(), version: 1, revision: 7, shards: new Map(), steps: [] };
    const clock = { current: () => Promise.resolve(7) };
    const payloads = new ClientFeatureService(
      { at: () => store.read(snapshot), store: () => Promise.resolve('recent' as const), storedScope: () => Promise.resolve(undefined) },
      clock,
    );
    const caller = { tokenName: 'sdk', type: 'client' as const, environment: 'development', projects: ['*'] };
    const answer = await joinedByCallerWithoutDeadline(store, () => payloads.features(caller, { namePrefix: 'a' }, undefined));
    expect(answer.modified && JSON.parse(answer.payload.json)).toMatchObject({ features: [] });
    expect(store.calls.count).toBe(1);
  });
});
