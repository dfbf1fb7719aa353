import { randomBytes, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { groupHandlerOf, type LambdaHandler } from '../../lib/composition/function-handler.js';
import type { Services } from '../../local/app-services.js';
import { GROUPS, SDK_GROUPS, type Group } from '../../lib/http/route.js';
import { operationIds, routeTable, type OperationId } from '../../lib/route-table.js';
import type { Sample } from '../../lib/samples.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { BOOKKEEPING_PARTITIONS } from '../../lib/store/table-design.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { functionDefinitions } from '../../functions/registry.js';
import { localContext } from '../../local/api-gateway-event.js';
import { SAMPLE_SCENARIOS, sampleEvent } from '../../local/sample-scenarios.js';
import { faultyEngine } from '../support/gated-engine.js';
import { apiClient, type ApiRequest } from '../support/api.js';
import { storeAdminToken, testServices, unique } from '../support/services.js';
import { GOOD_PASSWORD, logIn, userWithPassword } from '../support/sessions.js';

// Every admin write route, run with its sample (lib/<resource>/samples.ts) through an AWS-like
// engine that answers InternalServerError to every read once the request's first write that
// stores a change has passed (found by the fuzz with faults, issue 13 deliverable 3). A route
// that reads after its write (to build its answer, or for bookkeeping) then answers 503 for a
// change that was stored. What must hold: the sample's own 2xx, or a 503 that stored nothing.

const SEED = Number(process.env.AWS_LIKE_DYNAMODB_SEED ?? 13);
const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['TransactWriteItems', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

/** The admin write samples that succeed: every non-GET route but the SDK's (client group) and the catch-all. */
const WRITE_SAMPLES = Object.values(SAMPLE_SCENARIOS).filter(
  (sample) => !['GET', 'ANY', 'OPTIONS'].includes(sample.route.method) && !SDK_GROUPS.has(sample.route.group)
    && sample.status >= 200 && sample.status < 300,
);

interface Case {
  operation: OperationId;
  /** Makes what the write needs, on the normal engine; fills `values`. */
  setUp: (values: Record<string, string>) => Promise<void>;
  /** The write, through `faulty`. */
  send: (faulty: Services, values: Record<string, string>) => Promise<{ status: number; body: string }>;
  status: number;
}

const sampleCase = (sample: Sample): Case => ({
  operation: sample.operation,
  setUp: (values) => setUp(sample.key, values),
  send: async (faulty, values) => {
    const result = await invoke(handlersOf(faulty), sample, values);
    return { status: result.statusCode ?? 200, body: result.body ?? '' };
  },
  status: sample.status,
});

/** Routes whose samples only show a refusal (an unknown id), by hand. */
const strategyBase = '/api/admin/projects/default/features/{{FEATURE}}/environments/development/strategies';
const withStrategy = async (values: Record<string, string>) => {
  values.FEATURE = unique('no-read-after');
  await expectStatus(201, { method: 'POST', path: '/api/admin/projects/default/features', body: { name: values.FEATURE } }, values);
  values.STRATEGY_ID = (await expectStatus(200, { method: 'POST', path: strategyBase, body: { name: 'default' } }, values)).id;
};
const withSignupToken = async (values: Record<string, string>) => {
  const body = { name: unique('onboarding'), expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
  values.SIGNUP_TOKEN = (await expectStatus(201, { method: 'POST', path: '/api/admin/invite-link/tokens', body }, values)).secret;
};
const byHand = (operation: OperationId, setUpWith: (values: Record<string, string>) => Promise<void>, request: ApiRequest, status: number): Case => ({
  operation,
  setUp: setUpWith,
  send: async (faulty, values) => {
    const res = await apiClient(faulty)(filled(request, values));
    return { status: res.status, body: res.text };
  },
  status,
});
/** A user with a password, logged in on the normal engine: COOKIE is their session, PERSON their username. */
const withSession = async (values: Record<string, string>) => {
  const user = await userWithPassword(services, 'Editor');
  values.PERSON = user.username as string;
  values.COOKIE = await logIn(apiClient(services), values.PERSON);
};
const withResetLink = async (values: Record<string, string>) => {
  const user = await userWithPassword(services, 'Viewer');
  const link: string = (await expectStatus(200, { method: 'POST', path: '/api/admin/user-admin/reset-password', body: { id: String(user.id) } }, values)).resetPasswordUrl;
  values.RESET_TOKEN = new URL(link).searchParams.get('token') as string;
};
/** Same-origin headers a browser page of the service sends with its session cookie. */
const asPerson = { Cookie: '{{COOKIE}}', Origin: 'http://localhost:4242', 'Sec-Fetch-Site': 'same-origin' };
/** A flag of its own: FEATURE. */
const featureBase = '/api/admin/projects/default/features/{{FEATURE}}';
const withFeature = async (values: Record<string, string>) => {
  values.FEATURE = unique('no-read-after');
  await expectStatus(201, { method: 'POST', path: '/api/admin/projects/default/features', body: { name: values.FEATURE } }, values);
};
/** A flag with one link: LINK_ID. */
const withLink = async (values: Record<string, string>) => {
  await withFeature(values);
  await expectStatus(204, { method: 'POST', path: `${featureBase}/link`, body: { url: 'https://example.com/issue/1', title: 'Rollout' } }, values);
  values.LINK_ID = String((await expectStatus(200, { method: 'GET', path: featureBase }, values)).links[0].id);
};
const withPersonAndFeature = async (values: Record<string, string>) => {
  await withFeature(values);
  await withSession(values);
};
const HAND_WRITTEN: Record<string, Case> = {
  // A person's own: personal access tokens, splash screens and feedback (an API token is refused them).
  'access/create-pat': byHand(
    'createPat', withSession,
    { method: 'POST', path: '/api/admin/user/tokens', headers: asPerson, body: { description: 'ci {{UNIQUE}}', expiresAt: '2099-01-01T00:00:00.000Z' } },
    201,
  ),
  'access/delete-pat': byHand(
    'deletePat',
    async (values) => {
      await withSession(values);
      const body = { description: 'ci {{UNIQUE}}', expiresAt: '2099-01-01T00:00:00.000Z' };
      values.PAT_ID = String((await expectStatus(201, { method: 'POST', path: '/api/admin/user/tokens', headers: asPerson, body }, values)).id);
    },
    { method: 'DELETE', path: '/api/admin/user/tokens/{{PAT_ID}}', headers: asPerson },
    200,
  ),
  'access/splash-seen': byHand('updateSplashSettings', withSession, { method: 'POST', path: '/api/admin/splash/personalDashboardKeyConcepts', headers: asPerson }, 200),
  'access/feedback': byHand('createFeedback', withSession, { method: 'POST', path: '/api/admin/feedback', headers: asPerson, body: { feedbackId: 'pnps', neverShow: true } }, 200),
  'access/feedback-update': byHand(
    'updateFeedback', withSession, { method: 'PUT', path: '/api/admin/feedback/pnps', headers: asPerson, body: { given: '2026-11-22T03:00:00.000Z' } }, 200,
  ),
  'access/logout': byHand('logout', withSession, { method: 'POST', path: '/logout', headers: asPerson }, 302),
  'access/change-my-password': byHand(
    'changeMyPassword', withSession,
    { method: 'POST', path: '/api/admin/user/change-password', headers: asPerson, body: { password: 'Next-Good-Pass-9', confirmPassword: 'Next-Good-Pass-9', oldPassword: GOOD_PASSWORD } },
    200,
  ),
  'access/reset-password': byHand('resetPassword', withResetLink, { method: 'POST', path: '/auth/reset/password', body: { token: '{{RESET_TOKEN}}', password: 'Reset-Good-Pass-9' } }, 200),
  'access/validate-password': byHand('validatePassword', async () => undefined, { method: 'POST', path: '/auth/reset/validate-password', body: { password: 'Reset-Good-Pass-9' } }, 200),
  'access/sign-up-with-invite': byHand(
    'signUpWithInvite', withSignupToken,
    { method: 'POST', path: '/invite/{{SIGNUP_TOKEN}}/signup', body: { name: 'Ada', email: 'ada-{{UNIQUE}}@example.com', password: 'Invite-Good-Pass-9' } },
    201,
  ),
  'features/set-strategy-sort-order': byHand(
    'setStrategySortOrder', withStrategy, { method: 'POST', path: `${strategyBase}/set-sort-order`, body: [{ id: '{{STRATEGY_ID}}', sortOrder: 3 }] }, 200,
  ),
  'features/update-strategy': byHand('updateStrategy', withStrategy, { method: 'PUT', path: `${strategyBase}/{{STRATEGY_ID}}`, body: { name: 'default', title: 'edited' } }, 200),
  'features/delete-strategy': byHand('deleteStrategy', withStrategy, { method: 'DELETE', path: `${strategyBase}/{{STRATEGY_ID}}` }, 200),
  'access/delete-known-token': byHand(
    'deleteApiToken',
    async (values) => {
      const body = { tokenName: unique('sdk'), type: 'client', environment: 'development', projects: ['default'] };
      values.API_TOKEN = (await expectStatus(201, { method: 'POST', path: '/api/admin/api-tokens', body }, values)).secret;
    },
    { method: 'DELETE', path: '/api/admin/api-tokens/{{API_TOKEN}}' },
    200,
  ),
  'access/update-signup-token': byHand('updateSignupToken', withSignupToken, { method: 'PUT', path: '/api/admin/invite-link/tokens/{{SIGNUP_TOKEN}}', body: { enabled: false } }, 200),
  'access/delete-project-token': byHand(
    'deleteProjectApiToken',
    async (values) => {
      const body = { tokenName: unique('project-sdk'), type: 'client', environment: 'development' };
      values.API_TOKEN = (await expectStatus(201, { method: 'POST', path: '/api/admin/projects/default/api-tokens', body }, values)).secret;
    },
    { method: 'DELETE', path: '/api/admin/projects/default/api-tokens/{{API_TOKEN}}' },
    200,
  ),
  'features/update-feature-link': byHand('updateFeatureLink', withLink, { method: 'PUT', path: `${featureBase}/link/{{LINK_ID}}`, body: { url: 'https://example.com/edited' } }, 204),
  'features/delete-feature-link': byHand('deleteFeatureLink', withLink, { method: 'DELETE', path: `${featureBase}/link/{{LINK_ID}}` }, 204),
  'projects/favourite-feature': byHand(
    'favouriteFeature', withPersonAndFeature, { method: 'POST', path: `${featureBase}/favorites`, headers: asPerson }, 200,
  ),
  'projects/unfavourite-feature': byHand(
    'unfavouriteFeature',
    async (values) => {
      await withPersonAndFeature(values);
      await expectStatus(200, { method: 'POST', path: `${featureBase}/favorites`, headers: asPerson }, values);
    },
    { method: 'DELETE', path: `${featureBase}/favorites`, headers: asPerson },
    200,
  ),
  'projects/favourite-project': byHand('favouriteProject', withSession, { method: 'POST', path: '/api/admin/projects/default/favorites', headers: asPerson }, 200),
  'projects/unfavourite-project': byHand(
    'unfavouriteProject',
    async (values) => {
      await withSession(values);
      await expectStatus(200, { method: 'POST', path: '/api/admin/projects/default/favorites', headers: asPerson }, values);
    },
    { method: 'DELETE', path: '/api/admin/projects/default/favorites', headers: asPerson },
    200,
  ),
  'access/sign-up-with-token': byHand(
    'signUpWithToken',
    withSignupToken,
    { method: 'POST', path: '/api/admin/invite-link/tokens/{{SIGNUP_TOKEN}}/signup', body: { email: 'grace-{{UNIQUE}}@example.com', name: 'Grace' } },
    201,
  ),
};

/** Samples that store nothing: a POST that only reads, a delete of an unknown token (Unleash answers 200). */
const WRITE_NOTHING = new Set([
  'features/export-project', 'features/validate-import', 'access/delete-token', 'access/validate-password', 'access/validate-user-password',
  // Its sample names users who are not inactive (a fresh table has none): they are kept.
  'access/delete-inactive-users',
  // The admin UI's checks before it saves, and its playground: POSTs that only read.
  'features/validate-archive-features', 'features/validate-constraint', 'features/validate-feature-name', 'features/validate-segment-name',
  'features/validate-tag-type', 'features/validate-context-field-name', 'features/validate-project-context-field-name',
  'instance/playground', 'instance/playground-advanced',
  // What the UI reports of its own errors goes to the log, not the table (lib/instance).
  'instance/record-ui-error',
]);

const CASES: Array<[string, Case]> = [
  ...WRITE_SAMPLES.map((sample) => [sample.key, sampleCase(sample)] as [string, Case]),
  ...Object.entries(HAND_WRITTEN),
];

const SECRET_KEY = randomBytes(32).toString('base64url');
let services: Services;
let table: string;
let secret: string;
let normal: Record<Group, LambdaHandler>;
let engine: Awaited<ReturnType<typeof faultyEngine>>;
/** Set while the route under test runs; `stored` once it wrote something other than bookkeeping. */
const watch = { armed: false, stored: false };

beforeAll(async () => {
  // A table of this file's own, so that a scan sees only what its routes wrote.
  table = unique('no-read-after-write');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, table);
  services = testServices({ TABLE_NAME: table, SECRET_KEY });
  await services.firstStart.ensure();
  secret = formatSecret(['*'], '*');
  await storeAdminToken(services, secret);
  normal = handlersOf(services);
  engine = await faultyEngine(SEED, {
    faultRate: 0,
    latencyRate: 0,
    faultWhen: (operation, body) => {
      if (!watch.armed) return false;
      if (WRITES.has(operation)) {
        if (!onlyBookkeeping(operation, body)) watch.stored = true;
        return false;
      }
      return watch.stored && READS.has(operation);
    },
  });
});

afterAll(async () => {
  await engine?.stop();
});

describe('an admin write reads nothing once its change is stored', () => {
  it('covers every admin write route', () => {
    const covered = new Set(CASES.map(([, { operation }]) => operation));
    const writes = operationIds.filter((id) => !['GET', 'ANY', 'OPTIONS'].includes(routeTable[id].method) && !SDK_GROUPS.has(routeTable[id].group));
    expect(writes.filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(CASES)('%s: its 2xx, or a 503 that stored nothing', async (key, { setUp: prepare, send, status: expected }) => {
    const values: Record<string, string> = { ADMIN_TOKEN: secret, UNIQUE: randomUUID().slice(0, 8) };
    await prepare(values);
    const before = await snapshot();
    // A new process's services (cold caches), on the same table through the faulty engine.
    const faulty = testServices({ DYNAMODB_ENDPOINT: engine.endpoint, TABLE_NAME: table, SECRET_KEY });
    watch.armed = true;
    watch.stored = false;
    let result: { status: number; body: string };
    try {
      result = await send(faulty, values);
    } finally {
      watch.armed = false;
    }
    const { status, body } = result;
    if (status === 503) {
      expect({ status, body, changed: diff(before, await snapshot()) }).toEqual({ status, body, changed: [] });
    } else {
      expect({ status, body }).toEqual({ status: expected, body });
      // Else the faults never came into play and the case proves nothing.
      expect(watch.stored, 'a write that stored a change went through the faulty engine').toBe(!WRITE_NOTHING.has(key));
    }
  });
});

describe('where a read after a write cannot be avoided', () => {
  // An import writes the context fields and tag types it brings before its features (which may
  // use them), then its features in transactions of 40, each read and committed after the
  // writes before it: a failure then answers 503 saying that some of the change was stored.
  it('an import that brings a new tag type: 200, or 503 saying some or all of it was stored', async () => {
    const values: Record<string, string> = { UNIQUE: randomUUID().slice(0, 8) };
    const name = `imported-${values.UNIQUE}`;
    const data = {
      features: [{ name, type: 'release', stale: false, impressionData: false, archived: false }],
      featureStrategies: [], featureEnvironments: [], contextFields: [], segments: [], dependencies: [],
      featureTags: [{ featureName: name, tagType: `brought-${values.UNIQUE}`, tagValue: 'x' }],
      tagTypes: [{ name: `brought-${values.UNIQUE}` }],
    };
    const faulty = testServices({ DYNAMODB_ENDPOINT: engine.endpoint, TABLE_NAME: table, SECRET_KEY });
    watch.armed = true;
    watch.stored = false;
    let res: Awaited<ReturnType<ReturnType<typeof apiClient>>>;
    try {
      res = await apiClient(faulty)(filled({ method: 'POST', path: '/api/admin/features-batch/import', body: { project: 'default', environment: 'development', data } }, values));
    } finally {
      watch.armed = false;
    }
    const { status } = await apiClient(services)(filled({ method: 'GET', path: `/api/admin/tag-types/brought-${values.UNIQUE}` }, values));
    expect({ status: res.status, message: res.body?.message, tagTypeStored: status === 200 }).toEqual(
      res.status === 503
        ? { status: 503, message: expect.stringContaining('Some or all of this change was stored'), tagTypeStored: true }
        : { status: 200, message: undefined, tagTypeStored: true },
    );
  });
});

function filled(request: ApiRequest, values: Record<string, string>): ApiRequest {
  const fill = (text: string) => text.replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
  const headers = request.headers && Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, fill(value)]));
  return {
    ...request,
    path: fill(request.path),
    // A person's session stands alone (an Authorization header would take precedence over it).
    ...(headers ? { headers } : {}),
    token: headers?.Cookie ? undefined : secret,
    ...(request.body === undefined ? {} : { body: JSON.parse(fill(JSON.stringify(request.body))) }),
  };
}

/** A request on the normal engine that must answer `status`; its body. */
async function expectStatus(status: number, request: ApiRequest, values: Record<string, string>): Promise<any> {
  const res = await apiClient(services)(filled(request, values));
  if (res.status !== status) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${res.text}`);
  return res.body;
}

function handlersOf(of: Services): Record<Group, LambdaHandler> {
  return Object.fromEntries(
    GROUPS.map((group) => [group, groupHandlerOf(functionDefinitions[group], of.composition)]),
  ) as Record<Group, LambdaHandler>;
}

/** The sample's setup steps, as `npm run invoke` runs them (local/invoke-sample.ts), on the normal engine. */
async function setUp(key: string, values: Record<string, string>, done = new Set<string>()): Promise<void> {
  for (const step of SAMPLE_SCENARIOS[key]?.given ?? []) {
    if (done.has(step)) continue;
    done.add(step);
    await setUp(step, values, done);
    const sample = SAMPLE_SCENARIOS[step] as Sample;
    const result = await invoke(normal, sample, values);
    if (result.statusCode !== sample.status) throw new Error(`Setup step ${step} answered ${result.statusCode}: ${result.body}`);
    const body = result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {};
    for (const [placeholder, property] of Object.entries(sample.provides ?? {})) values[placeholder] = String(body[property]);
  }
}

async function invoke(handlers: Record<Group, LambdaHandler>, sample: Sample, values: Record<string, string>): Promise<APIGatewayProxyStructuredResultV2> {
  const text = JSON.stringify(sampleEvent(sample)).replace(/\{\{#?([A-Z_]+)\}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  const result = await handlers[sample.route.group](event, localContext(`test-${sample.route.group}`));
  return typeof result === 'string' ? { statusCode: 200, body: result } : result;
}

/** A single-item write to a bookkeeping partition (lib/store/late-writes.ts counts it as storing nothing). */
function onlyBookkeeping(operation: string, body: Record<string, any>): boolean {
  if (operation === 'TransactWriteItems' || operation === 'BatchWriteItem') return false;
  const pk = (body.Key ?? body.Item)?.pk?.S;
  return typeof pk === 'string' && BOOKKEEPING_PARTITIONS.has(pk);
}

/** Every item of the table but the bookkeeping partitions, read through a normal client. */
async function snapshot(): Promise<Map<string, string>> {
  const db = createDocumentClient({ region: 'local', endpoint: inject('dynamodb').endpoint });
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (BOOKKEEPING_PARTITIONS.has(String(item.pk))) continue;
      items.set(`${item.pk} ${item.sk}`, JSON.stringify(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}
