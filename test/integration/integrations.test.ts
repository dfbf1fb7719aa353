import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { QueryCommand as RawQueryCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { actionsOf, INTEGRATIONS_DELIVERY_TABLE_ACCESS, INTEGRATIONS_STREAM_TABLE_ACCESS } from '../../infra/table-access.js';
import { integrationDeliveryOn } from '../../lib/composition/integration-delivery.js';
import { loadConfig } from '../../lib/config.js';
import { changeEvent } from '../../lib/events/model.js';
import { changeEventsOf } from '../../lib/integrations/dynamo-stream-records.js';
import type { DeliveryMessage } from '../../lib/integrations/model.js';
import { RecordedEventBus } from '../../local/integrations-pipeline.js';
import { watchWrites } from '../fuzz/store-watch.js';
import { startLocalIntegrations } from '../../local/integrations-pipeline.js';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { servicesOn, storeAdminToken, testConfig, testServices, unique } from '../support/services.js';
import { startReceiver } from './integrations-receiver.js';

/** The providers' forms as Unleash 7.6.5 answers GET /api/admin/addons (local/unleash-reference.ts), reduced to what the UI draws. */
type ProviderForm = { parameters: unknown[][]; events: string[]; deprecated: boolean; tagTypes: string[]; installation: boolean };
const unleashProviders = JSON.parse(readFileSync(new URL('./integrations-unleash-providers.json', import.meta.url), 'utf8')) as Record<string, ProviderForm>;

// A table of its own: the fan-out reads every integration of its table, and other files make theirs.
const tableName = unique('integrations');
const receiver = startReceiver();
// Listening before the pipeline is built: Slack's Web API is pointed at it.
await receiver.ready;
const secretKey = randomBytes(32).toString('base64url');
const services = testServices({ TABLE_NAME: tableName, SECRET_KEY: secretKey, UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: 'true', UNLEASH_URL: 'http://toggles.test' });
const pipeline = startLocalIntegrations(services.composition, { timers: false, slackApiUrl: `${receiver.url}/slack-api` });
const call = apiClient(services);
const token = formatSecret(['*'], '*');
const steps = featureSteps(call, token);

beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint: testConfig().dynamodbEndpoint as string }, tableName);
  await services.firstStart.ensure();
  await storeAdminToken(services, token);
});
afterAll(async () => {
  await pipeline.stop();
  await receiver.close();
});

const create = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/addons', token, body });
const deliveries = async (id: number) => {
  const res = await call({ method: 'GET', path: `/api/admin/addons/${id}/events?limit=100`, token });
  expect(res.status, res.text).toBe(200);
  return res.body.integrationEvents as Array<{ id: string; state: string; stateDetails: string; event: { type: string; featureName: string }; details: Record<string, unknown> }>;
};

async function integration(body: Record<string, unknown>): Promise<number> {
  const res = await create({ enabled: true, projects: [], environments: [], ...body });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** A project of its own with one flag, enabled in development: feature-created, then feature-environment-enabled. */
async function flagTurnedOn(): Promise<{ project: string; flag: string }> {
  const project = await steps.createProject();
  const flag = await steps.createFeature(project);
  expect((await steps.turn(project, flag, 'development', 'on')).status).toBe(200);
  // Delivered before the test's integrations exist: the stream stage reads the integrations when it runs.
  await pipeline.settle();
  return { project, flag };
}

describe('the providers (GET /api/admin/addons)', () => {
  it("answers Unleash 7.6.5's form of each provider it delivers: parameters, events, deprecation, tag types", async () => {
    const res = await call({ method: 'GET', path: '/api/admin/addons', token });

    expect(res.status, res.text).toBe(200);
    const ours = new Map((res.body.providers as Array<Record<string, any>>).map((provider) => [provider.name, provider]));
    for (const name of ['webhook', 'slack', 'slack-app', 'teams', 'datadog', 'new-relic'] as const) {
      const theirs = unleashProviders[name] as ProviderForm;
      const provider = ours.get(name);
      expect(provider, name).toBeDefined();
      const parameters = provider?.parameters.map((p: any) => [p.name, p.displayName, p.type, p.required, p.sensitive]);
      for (const parameter of theirs.parameters) expect(parameters, name).toContainEqual(parameter);
      expect([...provider?.events].sort(), name).toEqual([...theirs.events].sort());
      expect(Boolean(provider?.deprecated), name).toBe(theirs.deprecated);
      expect((provider?.tagTypes ?? []).map((t: any) => t.name), name).toEqual(theirs.tagTypes);
      expect(Boolean(provider?.installation), name).toBe(theirs.installation);
    }
    expect(ours.get('amazon-eventbridge')?.displayName).toBe('Amazon EventBridge');
  });
});

describe('configuring an integration', () => {
  it('keeps sensitive parameters sealed in the table, answers them masked, and keeps them when PUT sends the mask back', async () => {
    const url = `${receiver.url}/masked/${unique('hook')}`;
    const id = await integration({ provider: 'webhook', description: 'masked', parameters: { url, signingSecret: 'very-secret', contentType: 'application/json' }, events: ['feature-created'] });

    const one = await call({ method: 'GET', path: `/api/admin/addons/${id}`, token });
    expect(one.body.parameters).toEqual({ url: '*****', signingSecret: '*****', contentType: 'application/json' });
    const { Item } = await services.composition.store.db.send(new GetCommand({ TableName: tableName, Key: keys.integration(id) }));
    expect(JSON.stringify(Item)).not.toContain('very-secret');
    expect(JSON.stringify(Item)).not.toContain(url);

    const put = await call({ method: 'PUT', path: `/api/admin/addons/${id}`, token, body: { provider: 'webhook', enabled: true, description: 'renamed', parameters: { url: '*****', signingSecret: '*****' }, events: ['feature-created'] } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id, description: 'renamed', parameters: { url: '*****', signingSecret: '*****' } });
    const flag = await steps.createFeature();
    await pipeline.settle();
    const [request] = receiver.requestsTo(new URL(url).pathname);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ type: 'feature-created', featureName: flag });
    expect(request?.headers['x-toggles-signature-256']).toBe(`sha256=${createHmac('sha256', 'very-secret').update(request?.body ?? '').digest('hex')}`);
  });

  it('refuses an unknown provider, missing required parameters, the deprecated Slack webhook and a URL that is not http(s), naming the property', async () => {
    const unknown = await create({ provider: 'carrier-pigeon', parameters: {}, events: [] });
    const missing = await create({ provider: 'datadog', parameters: { url: 'https://example.com' }, events: [] });
    const deprecated = await create({ provider: 'slack', parameters: { url: 'https://hooks.slack.com/x', defaultChannel: 'general' }, events: [] });
    const notHttp = await create({ provider: 'webhook', parameters: { url: 'file:///etc/passwd' }, events: [] });
    const badValue = await create({ provider: 'webhook', parameters: { url: { nested: true } }, events: [] });

    for (const res of [unknown, missing, deprecated, notHttp, badValue]) {
      expect(res.status, res.text).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
    expect(unknown.body.message).toContain('Unknown addon provider carrier-pigeon');
    expect(missing.body.message).toContain('Missing required parameters: apiKey');
    expect(deprecated.body.message).toContain('deprecated');
    expect(notHttp.body.message).toContain('parameters.url');
    expect(badValue.body.message).toContain('parameters');
  });

  it('refuses a loopback or private address unless UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION is set, as Unleash does', async () => {
    const strict = apiClient(testServices({ TABLE_NAME: tableName, SECRET_KEY: secretKey }));

    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'http://10.1.2.3/']) {
      const res = await strict({ method: 'POST', path: '/api/admin/addons', token, body: { provider: 'webhook', parameters: { url }, events: ['feature-created'] } });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toContain('non-public address');
    }
  });

  it('deletes an integration (404 once it is gone, as Unleash answers), after which it is not found and its queued deliveries are dropped', async () => {
    const path = `/deleted/${unique('hook')}`;
    const id = await integration({ provider: 'webhook', parameters: { url: `${receiver.url}${path}` }, events: ['feature-created'] });
    await steps.createFeature();

    expect((await call({ method: 'DELETE', path: `/api/admin/addons/${id}`, token })).status).toBe(200);
    expect((await call({ method: 'DELETE', path: `/api/admin/addons/${id}`, token })).status).toBe(404);
    await pipeline.settle();

    expect((await call({ method: 'GET', path: `/api/admin/addons/${id}`, token })).status).toBe(404);
    expect((await call({ method: 'GET', path: `/api/admin/addons/${id}/events`, token })).status).toBe(404);
    expect(receiver.requestsTo(path)).toEqual([]);
  });

  it('records its configuration changes as events of the event log', async () => {
    const id = await integration({ provider: 'teams', parameters: { url: `${receiver.url}/teams-log` }, events: [] });
    await call({ method: 'DELETE', path: `/api/admin/addons/${id}`, token });

    const res = await call({ method: 'GET', path: '/api/admin/search/events?type=IS_ANY_OF:addon-config-created,addon-config-deleted&limit=1000', token });
    const mine = (res.body.events as Array<{ type: string; summary: string }>).filter((event) => event.summary.includes(`teams:${id}`));
    expect(mine.map((event) => event.type).sort()).toEqual(['addon-config-created', 'addon-config-deleted']);
  });

  it('answers 400 for a delivery page beyond 100 and 404 for an integration that does not exist', async () => {
    const id = await integration({ provider: 'webhook', parameters: { url: `${receiver.url}/paging` }, events: [] });

    expect((await call({ method: 'GET', path: `/api/admin/addons/${id}/events?limit=101`, token })).status).toBe(400);
    expect((await call({ method: 'GET', path: '/api/admin/addons/999999999', token })).status).toBe(404);
  });
});

describe("the cloud's stream stage input", () => {
  it('reads the change events among stream records as DynamoDB stores them, and nothing else', async () => {
    const flag = await steps.createFeature();
    // The event item in DynamoDB's own attribute form, as the table's stream carries a new image.
    const { Items } = await services.composition.store.db.send(new RawQueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'featureName = :flag',
      ExpressionAttributeValues: { ':pk': { S: keys.eventsOfMonth(new Date().toISOString().slice(0, 7)).pk }, ':flag': { S: flag } },
    }));
    const [image] = Items ?? [];
    expect(image).toBeDefined();

    const events = changeEventsOf([
      { eventName: 'INSERT', dynamodb: { NewImage: image } },
      { eventName: 'MODIFY', dynamodb: { NewImage: image } },
      { eventName: 'INSERT', dynamodb: { NewImage: { pk: { S: 'FEATURES' }, sk: { S: `FEATURE#${flag}` }, name: { S: flag } } } },
      { eventName: 'REMOVE', dynamodb: {} },
    ]);

    expect(events).toEqual([expect.objectContaining({ type: 'feature-changed', featureName: flag, project: 'default', changes: ['created'] })]);
  });
});

describe("the stages' grants", () => {
  it('keeps the stream stage to one Query and the delivery stage to reading integrations and writing delivery logs, as infra/table-access.ts grants them', async () => {
    const endpoint = testConfig().dynamodbEndpoint as string;
    const grantsTable = unique('integration-grants');
    await prepareLocalTable({ region: 'local', endpoint }, grantsTable);
    const watch = await watchWrites(endpoint);
    try {
      const watched = servicesOn(loadConfig({ TABLE_NAME: grantsTable, DYNAMODB_ENDPOINT: watch.endpoint, AWS_REGION: 'local', SECRET_KEY: secretKey, UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: 'true' }));
      await storeAdminToken(watched, token);
      const created = await apiClient(watched)({ method: 'POST', path: '/api/admin/addons', token, body: { provider: 'webhook', parameters: { url: `${receiver.url}/grants` }, events: ['feature-created'] } });
      expect(created.status, created.text).toBe(200);
      const queued: DeliveryMessage[] = [];
      const stages = integrationDeliveryOn(watched.composition, { queue: { send: async (messages) => void queued.push(...messages) }, bus: new RecordedEventBus() });

      watch.takeActions();
      watch.takeWrites();
      await stages.fanOut([changeEvent('feature-changed', { project: 'default', featureName: unique('grant'), changes: ['created'] }, 'test')]);
      const streamActions = watch.takeActions();
      await stages.deliver(queued[0] as DeliveryMessage, 1);
      const deliveryActions = watch.takeActions();

      expect(queued).toHaveLength(1);
      expect([...streamActions]).toEqual(['dynamodb:Query']);
      expect([...deliveryActions].filter((action) => !actionsOf(INTEGRATIONS_DELIVERY_TABLE_ACCESS).includes(action))).toEqual([]);
      expect([...streamActions].filter((action) => !actionsOf(INTEGRATIONS_STREAM_TABLE_ACCESS).includes(action))).toEqual([]);
      const writes = watch.takeWrites();
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/^PutItem INTEGRATION_DELIVERIES#/);
    } finally {
      await watch.close();
    }
  });
});

describe('delivering change events', () => {
  it('posts each subscribed event of the chosen project and environment to a webhook, signed, with its custom headers, and logs each delivery', async () => {
    const { project, flag } = await flagTurnedOn();
    const path = `/hook/${unique('w')}`;
    const id = await integration({
      provider: 'webhook',
      parameters: { url: `${receiver.url}${path}`, signingSecret: 'shh', customHeaders: '{"X-Team":"checkout"}' },
      events: ['feature-created', 'feature-environment-enabled', 'feature-environment-disabled'],
      projects: [project],
      environments: ['production'],
    });

    await steps.turn(project, flag, 'development', 'off');
    await steps.turn(project, flag, 'production', 'on');
    const other = await steps.createFeature();
    await steps.turn('default', other, 'production', 'on');
    await pipeline.settle();

    const requests = receiver.requestsTo(path);
    expect(requests.map((request) => JSON.parse(request.body)).map((event) => [event.type, event.featureName, event.environment]))
      .toEqual([['feature-environment-enabled', flag, 'production']]);
    const [request] = requests;
    expect(request?.headers['x-team']).toBe('checkout');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-toggles-signature-256']).toBe(`sha256=${createHmac('sha256', 'shh').update(request?.body ?? '').digest('hex')}`);
    const log = await deliveries(id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ state: 'success', stateDetails: 'Webhook request was successful with status code: 200.', event: { type: 'feature-environment-enabled', featureName: flag } });
  });

  it('delivers after a retry when the receiver fails and recovers, and the log shows the failure and then the success', async () => {
    const path = `/flaky/${unique('w')}`;
    receiver.answer(path, [503]);
    const id = await integration({ provider: 'webhook', parameters: { url: `${receiver.url}${path}` }, events: ['feature-created'] });

    const flag = await steps.createFeature();
    await pipeline.settle();

    expect(receiver.requestsTo(path).map((request) => JSON.parse(request.body).featureName)).toEqual([flag, flag]);
    const log = await deliveries(id);
    expect(log.map((entry) => [entry.state, entry.details.attempt, entry.stateDetails])).toEqual([
      ['success', 2, 'Webhook request was successful with status code: 200.'],
      ['failed', 1, 'Webhook request failed with status code: 503.'],
    ]);
    expect(BigInt(log[0]?.id ?? 0)).toBeGreaterThan(BigInt(log[1]?.id ?? 0));
  });

  it('moves a delivery that keeps failing to the dead letters after 8 attempts, and does not retry a refused request (4xx)', async () => {
    const down = `/down/${unique('w')}`;
    const refusing = `/refusing/${unique('w')}`;
    receiver.answer(down, Array.from({ length: 8 }, () => 500));
    receiver.answer(refusing, [400]);
    const downId = await integration({ provider: 'webhook', parameters: { url: `${receiver.url}${down}` }, events: ['feature-created'] });
    const refusingId = await integration({ provider: 'webhook', parameters: { url: `${receiver.url}${refusing}` }, events: ['feature-created'] });
    const deadBefore = pipeline.queue.deadLetters.length;

    const flag = await steps.createFeature();
    await pipeline.settle();

    expect(receiver.requestsTo(down)).toHaveLength(8);
    expect((await deliveries(downId)).map((entry) => entry.state)).toEqual(Array.from({ length: 8 }, () => 'failed'));
    expect(pipeline.queue.deadLetters.slice(deadBefore)).toEqual([expect.objectContaining({ integrationId: downId, event: expect.objectContaining({ featureName: flag }) })]);
    expect(receiver.requestsTo(refusing)).toHaveLength(1);
    expect((await deliveries(refusingId)).map((entry) => entry.stateDetails)).toEqual(['Webhook request failed with status code: 400.']);
  });

  it('renders a body template with the event, its JSON and its description, and leaves a disabled integration silent', async () => {
    const path = `/template/${unique('w')}`;
    const silent = `/silent/${unique('w')}`;
    await integration({
      provider: 'webhook',
      parameters: { url: `${receiver.url}${path}`, contentType: 'text/plain', bodyTemplate: '{"type":"{{event.type}}","by":"{{event.createdBy}}","json":{{{eventJson}}},"md":"{{eventMarkdown}}"}' },
      events: ['feature-created'],
    });
    await integration({ provider: 'webhook', enabled: false, parameters: { url: `${receiver.url}${silent}` }, events: ['feature-created'] });

    const flag = await steps.createFeature();
    await pipeline.settle();

    const [request] = receiver.requestsTo(path);
    expect(request?.headers['content-type']).toBe('text/plain');
    const body = JSON.parse(request?.body ?? '{}');
    expect(body.type).toBe('feature-created');
    expect(JSON.parse(body.json)).toMatchObject({ type: 'feature-created', featureName: flag });
    expect(body.md).toContain(flag);
    expect(receiver.requestsTo(silent)).toEqual([]);
  });

  it("sends Microsoft Teams a message card and Datadog an event with its API key, in Unleash's formats", async () => {
    const teams = `/teams/${unique('t')}`;
    const datadog = `/datadog/${unique('d')}`;
    await integration({ provider: 'teams', parameters: { url: `${receiver.url}${teams}` }, events: ['feature-created'] });
    await integration({ provider: 'datadog', parameters: { url: `${receiver.url}${datadog}`, apiKey: 'dd-key', sourceTypeName: 'unleash' }, events: ['feature-created'] });

    const flag = await steps.createFeature();
    await pipeline.settle();

    const card = JSON.parse(receiver.requestsTo(teams)[0]?.body ?? '{}');
    expect(card).toMatchObject({ themeColor: '0076D7', summary: 'Message', sections: [{ activitySubtitle: 'Unleash notification update', facts: [{ name: 'User' }, { name: 'Action', value: 'feature-created' }] }] });
    expect(card.sections[0].activityTitle).toContain(flag);
    expect(card.potentialAction[0].targets[0].uri).toBe(`http://toggles.test/projects/default/features/${flag}`);
    const [event] = receiver.requestsTo(datadog);
    expect(event?.headers['dd-api-key']).toBe('dd-key');
    expect(JSON.parse(event?.body ?? '{}')).toMatchObject({ title: 'Unleash notification update', source_type_name: 'unleash', tags: [] });
    expect(JSON.parse(event?.body ?? '{}').text).toMatch(/^%%% \n .*%%% $/s);
  });

  it("sends New Relic's Event API the event's fields gzipped, with the license key", async () => {
    const path = `/new-relic/${unique('n')}`;
    await integration({ provider: 'new-relic', parameters: { url: `${receiver.url}${path}`, licenseKey: 'nr-key' }, events: ['feature-created'] });

    const flag = await steps.createFeature();
    await pipeline.settle();

    const [request] = receiver.requestsTo(path);
    expect(request?.headers).toMatchObject({ 'api-key': 'nr-key', 'content-encoding': 'gzip', 'content-type': 'application/json' });
    expect(JSON.parse(gunzipSync(request?.raw ?? Buffer.alloc(0)).toString('utf8'))).toMatchObject({
      eventType: 'UnleashServiceEvent', unleashEventType: 'feature-created', featureName: flag, createdBy: expect.any(String),
    });
  });

  it("posts to each App for Slack channel through Slack's Web API with the access token, and logs Slack's refusal as a failure", async () => {
    receiver.answer('/slack-api/chat.postMessage', [200, 200], () => '{"ok":true}');
    const id = await integration({ provider: 'slack-app', parameters: { accessToken: 'xoxb-test', defaultChannels: 'releases, ops' }, events: ['feature-created'] });

    const flag = await steps.createFeature();
    await pipeline.settle();

    const posts = receiver.requestsTo('/slack-api/chat.postMessage').filter((request) => request.body.includes(flag));
    expect(posts.map((request) => JSON.parse(request.body).channel).sort()).toEqual(['ops', 'releases']);
    expect(posts[0]?.headers.authorization).toBe('Bearer xoxb-test');
    expect(JSON.parse(posts[0]?.body ?? '{}').blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    const [entry] = await deliveries(id);
    expect(entry).toMatchObject({ state: 'success', details: { channels: ['releases', 'ops'] } });

    await call({ method: 'DELETE', path: `/api/admin/addons/${id}`, token });
    receiver.answer('/slack-api/chat.postMessage', [200], () => '{"ok":false,"error":"channel_not_found"}');
    const refused = await integration({ provider: 'slack-app', parameters: { accessToken: 'xoxb-test', defaultChannels: 'gone' }, events: ['feature-created'] });
    await steps.createFeature();
    await pipeline.settle();
    expect((await deliveries(refused)).map((entry) => [entry.state, entry.stateDetails])).toEqual([['failed', 'Slack client request failed with status code: 200 (channel_not_found).']]);
    await call({ method: 'DELETE', path: `/api/admin/addons/${refused}`, token });
  });

  it('puts every subscribed change event on the event bus with its type as the detail type (recorded locally)', async () => {
    await integration({ provider: 'amazon-eventbridge', parameters: { detailTypePrefix: 'test:' }, events: ['feature-created', 'feature-environment-enabled'] });
    const before = pipeline.bus.entries.length;

    const flag = await steps.createFeature();
    await steps.turn('default', flag, 'development', 'on');
    await pipeline.settle();

    const entries = pipeline.bus.entries.slice(before).filter((entry) => entry.detail.includes(flag));
    expect(entries.map((entry) => [entry.source, entry.detailType])).toEqual([
      ['serverless-toggles', 'test:feature-created'],
      ['serverless-toggles', 'test:feature-environment-enabled'],
    ]);
    expect(JSON.parse(entries[1]?.detail ?? '{}')).toMatchObject({ featureName: flag, environment: 'development' });
  });
});
