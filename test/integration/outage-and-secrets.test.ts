import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { log, REDACTED } from '../../lib/log.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { startDynamoDbLocal, type LocalEngine } from '../../local/dynamodb-local.js';
import { apiClient } from '../support/api.js';
import { captureLogs } from '../support/logs.js';
import { servicesOn } from '../support/services.js';

/** A runtime of its own, on a private engine this test may kill. */
let engine: LocalEngine;
let services: Services;
let token: string;

beforeAll(async () => {
  engine = await startDynamoDbLocal();
  await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, 'outage');
  services = servicesOn(loadConfig({ TABLE_NAME: 'outage', DYNAMODB_ENDPOINT: engine.endpoint, AWS_REGION: 'local', SECRET_KEY: randomBytes(32).toString('hex') }));
  await services.firstStart.ensure();
  token = formatSecret(['*'], '*');
  await services.apiTokens.insertKnownSecret(token, { tokenName: 'outage-admin', type: 'admin', environment: '*', projects: ['*'] });
});

afterAll(async () => {
  await engine?.stop();
});

describe('a DynamoDB engine that dies', () => {
  it('makes requests answer 503 with the Error shape within seconds, and logs no secret while doing so', async () => {
    const call = apiClient(services);
    const before = await call({ method: 'GET', path: '/api/admin/projects', token });
    expect(before.status).toBe(200);
    await engine.stop();
    const logs = captureLogs();

    const started = Date.now();
    const answers = await Promise.all([
      call({ method: 'GET', path: '/api/admin/projects', token }),
      call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name: 'during-outage' } }),
      call({ method: 'POST', path: '/api/admin/auth/oidc/settings', token, body: { enabled: true, clientId: 'c', secret: 'oidc-client-secret-value', discoverUrl: 'https://idp.example.com/.well-known/openid-configuration' } }),
    ]);
    const elapsed = Date.now() - started;
    logs.restore();

    expect(elapsed).toBeLessThan(15_000);
    for (const res of answers) {
      expect(res.status, res.text).toBe(503);
      expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
      expect(res.body.name).toBe('ServiceUnavailable');
      expect(res.text).not.toContain(token.split('.')[1]);
    }
    expect(logs.text()).toContain('not reachable');
    expect(logs.text()).not.toContain(token.split('.')[1]);
    expect(logs.text()).not.toContain('oidc-client-secret-value');
  });
});

describe('the logger', () => {
  it('redacts Authorization headers, secrets and API tokens in any text it is handed', () => {
    const secret = token.split('.')[1] as string;
    const logs = captureLogs();

    log.error('a failure that quotes its input', {
      headers: { authorization: token, 'content-type': 'application/json' },
      body: { clientSecret: 'oidc-client-secret-value', password: 'hunter2', note: `sent Bearer ${secret}` },
      error: new Error(`token ${token} was refused`),
      path: `/api/admin/api-tokens/${token}`,
    });
    logs.restore();

    const text = logs.text();
    expect(text).toContain(REDACTED);
    for (const leaked of [secret, 'oidc-client-secret-value', 'hunter2']) expect(text).not.toContain(leaked);
    // What is not secret stays readable.
    expect(text).toContain('application/json');
    expect(text).toContain('/api/admin/api-tokens/*:*.');
  });
});
