import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { startDynamoDbLocal, type LocalEngine } from '../../local/dynamodb-local.js';
import { apiClient } from '../support/api.js';
import { putFeature, sdkToken } from '../support/client.js';
import { captureLogs } from '../support/logs.js';
import { servicesOn } from '../support/services.js';

/** A runtime of its own, on a private engine this test stops, checking the revision on every request. */
let engine: LocalEngine;
let services: Services;
let token: string;

beforeAll(async () => {
  engine = await startDynamoDbLocal();
  await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, 'ofrep-outage');
  services = servicesOn(loadConfig({ TABLE_NAME: 'ofrep-outage', DYNAMODB_ENDPOINT: engine.endpoint, AWS_REGION: 'local', REVISION_CHECK_INTERVAL_MS: '0' }));
  await services.firstStart.ensure();
  await putFeature(services, { name: 'ofrep-outage-flag' });
  token = await sdkToken(services);
});

afterAll(async () => {
  await engine?.stop();
});

describe('OFREP while DynamoDB is not reachable', () => {
  it('answers 503 with Retry-After and the protocol\'s general error, not the interface\'s Error shape', async () => {
    const call = apiClient(services);
    const evaluate = () => call({ method: 'POST', path: '/ofrep/v1/evaluate/flags/ofrep-outage-flag', token, body: { context: { targetingKey: 'alice' } } });
    expect((await evaluate()).body).toMatchObject({ value: true });
    await engine.stop();
    const logs = captureLogs();

    const res = await evaluate();
    logs.restore();

    expect(res.status, res.text).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ errorDetails: expect.any(String) });
  });
});
