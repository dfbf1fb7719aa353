import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, GROUP_TABLE_ACCESS } from '../../infra/table-access.js';
import { routeTable, type OperationId } from '../../lib/route-table.js';
import { ServiceUnavailable } from '../../lib/errors.js';
import { WrittenBeforeFailure } from '../../lib/request-deadline.js';
import type { Group, RouteSpec } from '../../lib/http/route.js';
import { matchRoute } from '../../local/match-route.js';
import type { ApiRequest, ApiResponse } from '../support/api.js';
import { LOW_FAULTS, refusalsBetween } from '../support/gated-engine.js';
import { requestsFor } from './requests.js';
import { fuzzInstance, type FuzzInstance } from './world.js';

/**
 * Property-based fuzzing of route-table rows: generated paths, queries, bodies, content types
 * and tokens, valid and hostile. A failure names its seed and path; replay it with
 * FUZZ_SEED=<seed> (a route's seed is FUZZ_SEED plus its index in the route table; the
 * instance's AWS-like engine draws its faults from FUZZ_SEED too).
 */
export const SEED = Number(process.env.FUZZ_SEED ?? 72_026);

/** The interface's error names, by status; 413 is ours where the interface is silent. */
const ERROR_NAMES: Record<number, string> = {
  400: 'ValidationError', 401: 'AuthenticationRequired', 403: 'NoAccessError', 404: 'NotFoundError',
  409: 'NameExistsError', 413: 'ContentTooLarge', 415: 'ContentTypeerror', 503: 'ServiceUnavailable',
};
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const specOf = (id: OperationId): RouteSpec => routeTable[id];
/** A route with a body weighs double: most of the input space is there. */
const weightOf = (id: OperationId) => (specOf(id).body ? 2 : 1);

function expectInterfaceError(res: ApiResponse, secret: string): void {
  expect(ERROR_NAMES[res.status], `status ${res.status} is not one the interface has`).toBeDefined();
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  // A 401 for a missing login also names the login form, as Unleash's does (the admin UI shows it from these).
  const keys = Object.keys(res.body ?? {}).sort();
  const loginForm = res.status === 401 && keys.includes('type')
    ? ['defaultHidden', 'path', 'type', ...(keys.includes('options') ? ['options'] : [])]
    : [];
  expect(keys).toEqual(['id', 'message', 'name', ...loginForm].sort());
  expect(res.body.id).toMatch(UUID_V4);
  expect(res.body.name).toBe(ERROR_NAMES[res.status]);
  expect(typeof res.body.message).toBe('string');
  // Whatever was sent, an error never echoes a token's secret back.
  expect(res.text).not.toContain(secret);
}

/**
 * OFREP's refusals are its protocol's (lib/ofrep/errors.ts): 401 and 403 without a body, an
 * evaluation refused with OpenFeature's error code, any other failure with its details.
 */
function expectOfrepError(res: ApiResponse, secret: string): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (res.status === 401 || res.status === 403) expect(res.text).toBe('');
  else if (res.status === 400 || res.status === 404) expect(res.body).toMatchObject({ errorCode: expect.any(String) });
  else expect(res.body).toMatchObject({ errorDetails: expect.any(String) });
  expect(res.text).not.toContain(secret);
}

/** Checks one request at a time against one instance; counts what it sent, per route. */
class Checker {
  readonly sent = new Map<OperationId, number>();
  /** The IAM actions each endpoint group's requests needed, as seen on the wire. */
  readonly actionsByGroup = new Map<Group, Set<string>>();
  /** The revision as the last check left it: refusals must not move it, successes may. */
  private knownRevision: string | undefined;

  constructor(private readonly fuzz: FuzzInstance) {}

  private noteActions(group: Group, actions: Set<string>): void {
    const seen = this.actionsByGroup.get(group) ?? new Set<string>();
    for (const action of actions) seen.add(action);
    this.actionsByGroup.set(group, seen);
  }

  /** 503s answered, each while the engine refused a DynamoDB call (a fault, a throttle, a conflict). */
  unavailable = 0;

  /**
   * No 5xx but a 503 with Retry-After while the engine refused a DynamoDB call during the
   * request; a refusal (503 included) is an interface error that leaves the store as it was.
   */
  readonly check = async (request: ApiRequest): Promise<void> => {
    const operationId = matchRoute(request.method, request.path.split('?')[0] as string)?.operationId;
    if (operationId) this.sent.set(operationId, (this.sent.get(operationId) ?? 0) + 1);
    const before = request.method === 'GET' ? undefined : (this.knownRevision ??= await this.fuzz.revision());
    this.fuzz.watch.takeWrites();
    this.fuzz.watch.takeActions();
    const engineBefore = this.fuzz.engine.stats();
    const res = await this.fuzz.call(request);
    const refusals = refusalsBetween(engineBefore, this.fuzz.engine.stats());
    const written = this.fuzz.watch.takeWrites();
    if (operationId) this.noteActions(routeTable[operationId].group, this.fuzz.watch.takeActions());
    if (res.status < 400 || written.length > 0) this.knownRevision = undefined;
    if (res.status === 503 && refusals > 0) {
      this.unavailable += 1;
      expect(res.headers['retry-after'], 'a 503 without Retry-After').toBeDefined();
    } else expect(res.status, res.text).toBeLessThan(500);
    if (res.status < 400) return;
    if (operationId && routeTable[operationId].path.startsWith('/ofrep/')) expectOfrepError(res, this.fuzz.world.adminToken.split('.')[1] as string);
    else expectInterfaceError(res, this.fuzz.world.adminToken.split('.')[1] as string);
    // The one refusal allowed to have written: a 503 saying part of the change was stored (a
    // multi-step write, such as an import's later batch, failed after an earlier step landed).
    if (res.status === 503 && res.body?.message === PARTLY_STORED) return;
    // Ids are drawn from a sequence before an insert that may then be refused (a taken name, an
    // unknown member); like a Postgres sequence under Unleash, the drawn value is skipped.
    // Nothing else may move, in any item.
    // A refused password login is counted by design: the try against its name and address, and
    // the user's failed-login count (Unleash shows it).
    const countsTries = operationId === 'login';
    const unexpected = written.filter((write) => write !== 'UpdateItem COUNTERS' && !(countsTries && isLoginCount(write)));
    expect(unexpected, `a refused request (${res.status}) wrote`).toEqual([]);
    if (before === undefined) return;
    this.knownRevision = await this.fuzz.revision();
    expect(this.knownRevision, 'a refused request moved the SDK revision').toBe(before);
  };
}

const PARTLY_STORED = new WrittenBeforeFailure(new ServiceUnavailable('')).message;

/** The writes a refused login makes: its try's count, and the user's loginAttempts. */
const isLoginCount = (write: string): boolean =>
  /^(PutItem|UpdateItem) LOGIN_FAILURES#/.test(write) || write === 'UpdateItem USERS';

/**
 * Fuzzes the given routes with `budget` requests in all, on an instance of their own (a fresh
 * table behind a write watch), one vitest test per route.
 */
export function describeRouteFuzz(title: string, ids: OperationId[], budget: number): void {
  const totalWeight = ids.reduce((sum, id) => sum + weightOf(id), 0);
  const runsFor = (id: OperationId) => Math.ceil((budget * weightOf(id)) / totalWeight);
  let fuzz: FuzzInstance;
  let checker: Checker;

  describe(title, () => {
    beforeAll(async () => {
      console.log(`${title}: seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
      fuzz = await fuzzInstance(`fuzz-${randomUUID().slice(0, 8)}`, SEED);
      checker = new Checker(fuzz);
    });
    afterAll(async () => {
      if (fuzz) console.log(`${title}: AWS-like engine ${JSON.stringify(LOW_FAULTS)}, seed ${SEED}: ${JSON.stringify(fuzz.engine.stats())}; ${checker?.unavailable ?? 0} answers 503`);
      await fuzz?.close();
    });

    it.each(ids)('%s: never a 5xx; refusals are interface errors that change nothing', async (id) => {
      await fc.assert(fc.asyncProperty(requestsFor(specOf(id), fuzz.world), checker.check), {
        seed: SEED + Object.keys(routeTable).indexOf(id),
        numRuns: runsFor(id),
      });
    }, 120_000);

    it(`sent at least ${budget} requests, to every route`, () => {
      const total = [...checker.sent.values()].reduce((sum, count) => sum + count, 0);
      console.log(`${title}: ${total} requests over ${checker.sent.size} routes, seed ${SEED}; DynamoDB requests`, fuzz.watch.requests());
      expect(total).toBeGreaterThanOrEqual(budget);
      expect(ids.filter((id) => !checker.sent.has(id))).toEqual([]);
    });

    it("needed no DynamoDB action beyond its function's grant (infra/table-access.ts)", () => {
      for (const [group, actions] of checker.actionsByGroup) {
        const granted = actionsOf(GROUP_TABLE_ACCESS[group]);
        expect([...actions].filter((action) => !granted.includes(action)), group).toEqual([]);
      }
    });
  });
}
