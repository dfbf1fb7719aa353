import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../lib/errors.js';
import { BATCH_WRITES } from '../../lib/features/lifecycle-service.js';
import { BODY_LIMITS } from '../../lib/limits.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { MAX_TRANSACTION_ITEMS, transactWriteDetailed } from '../../lib/store/transact.js';
import { adminSession, type ApiResponse, resendWhileUnavailable } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { testConfig, unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

/** A JSON object body of exactly `bytes` bytes. */
const bodyOf = (bytes: number, fields: Record<string, unknown> = {}): string => {
  const prefix = JSON.stringify({ ...fields, pad: '' }).slice(0, -2);
  return `${prefix}${'x'.repeat(bytes - prefix.length - 2)}"}`;
};

const post = (path: string, rawBody: string) =>
  call({ method: 'POST', path, token, rawBody, headers: { 'content-type': 'application/json' } });

/** A request sent again past 503 ServiceUnavailable answers (see resendWhileUnavailable). */
const pastUnavailable = (request: () => Promise<ApiResponse>) =>
  resendWhileUnavailable(request, (res) => res.status === 503 && res.body?.name === 'ServiceUnavailable');

function expectError(res: ApiResponse, status: number, name: string, message: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
  expect(res.body.name).toBe(name);
  expect(res.body.message).toMatch(message);
}

describe('request body limits', () => {
  it('refuses a body past 100 KB with 413 ContentTooLarge, before reading it, and takes one at the limit', async () => {
    const path = '/api/admin/projects/default/features';

    const [overName, atName] = [unique('big'), unique('big')];
    const over = await post(path, bodyOf(BODY_LIMITS.default + 1, { name: overName }));
    const at = await post(path, bodyOf(BODY_LIMITS.default, { name: atName }));

    expectError(over, 413, 'ContentTooLarge', /at most 102400 bytes \(100 KB\)/);
    expect((await steps.getFeature('default', overName)).status).toBe(404);
    // At the limit the body is read; the schema then has its say (the pad is simply ignored).
    expect(at.status).toBe(201);
    expect((await steps.getFeature('default', atName)).body).toMatchObject({ name: atName, project: 'default' });
  });

  it('allows 500 KB on the batch endpoints and refuses more', async () => {
    const path = '/api/admin/features-batch/validate';

    const large = await post(path, bodyOf(400 * 1024, { project: 'default', environment: 'development', data: { features: [] } }));
    const over = await post(path, bodyOf(BODY_LIMITS.batch + 1));

    expect(large.status).not.toBe(413);
    // Read and judged on its content: the schema's refusal of the pad, not a size refusal.
    expect(large.body.name).toBe('ValidationError');
    expect(large.body.message).toContain('Unrecognized key: "pad"');
    expect(large.body.message).not.toMatch(/bytes/);
    expectError(over, 413, 'ContentTooLarge', /at most 512000 bytes \(500 KB\)/);
  });
});

describe('DynamoDB limits', () => {
  /** About 80 KB of parameters: under the body limit, a fifth of an item. */
  const bulkyStrategy = () => ({
    name: 'default',
    parameters: Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`p${index}`, 'v'.repeat(1000)])),
  });

  it('answers 400 naming the 400 KB item limit when strategies would make the feature too large, and keeps it as it was', async () => {
    const feature = await steps.createFeature('default', unique('bulky'));
    const answers: number[] = [];
    let refused: ApiResponse | undefined;
    for (let attempt = 0; attempt < 8 && !refused; attempt += 1) {
      const res = await pastUnavailable(() => steps.addStrategy('default', feature, 'development', bulkyStrategy()));
      answers.push(res.status);
      if (res.status !== 200) refused = res;
    }

    expect(refused, `answers: ${answers.join(', ')}`).toBeDefined();
    expectError(refused as ApiResponse, 400, 'ValidationError', /larger than DynamoDB allows \(400 KB\)/);
    const stored = await steps.getFeature('default', feature);
    const strategies = stored.body.environments.find((e: { name: string }) => e.name === 'development').strategies;
    expect(strategies).toHaveLength(answers.filter((status) => status === 200).length);
  });

  it('answers 400 for a name longer than a key can hold, wherever it is used', async () => {
    const long = 'n'.repeat(1500);

    const inPath = await steps.getFeature('default', long);
    const inBody = await call({ method: 'POST', path: '/api/admin/features-batch/export', token, body: { environment: long } });

    expect([400, 404]).toContain(inPath.status);
    expect(inBody.status).toBeLessThan(500);
  });

  it('refuses a transaction of more than 100 items with a clear 400, writing none of them', async () => {
    const config = testConfig();
    const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
    const prefix = unique('tx');
    const items = Array.from({ length: MAX_TRANSACTION_ITEMS + 1 }, (_, index) => ({
      Put: { TableName: config.tableName, Item: { pk: prefix, sk: String(index) } },
    }));

    const attempt = transactWriteDetailed(db, items);

    await expect(attempt).rejects.toThrow(ValidationFailed);
    await expect(attempt).rejects.toThrow(/touches 101 items; one atomic change may touch at most 100/);
    for (const sk of ['0', '100']) {
      expect((await db.send(new GetCommand({ TableName: config.tableName, Key: { pk: prefix, sk } }))).Item).toBeUndefined();
    }
  });

  it('refuses marking more features stale than one transaction holds, and marks none', async () => {
    const project = await steps.createProject();
    const names = await Promise.all(Array.from({ length: BATCH_WRITES + 1 }, async () => {
      const name = unique('many');
      const created = await pastUnavailable(() => call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } }));
      expect(created.status, created.text).toBe(201);
      return name;
    }));

    const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: names, stale: true } });

    expectError(res, 400, 'ValidationError', new RegExp(`at most ${BATCH_WRITES} features`));
    const list = await call({ method: 'GET', path: `/api/admin/projects/${project}/features`, token });
    expect(list.body.features.filter((f: { stale: boolean }) => f.stale)).toEqual([]);
  });
});

describe('schema limits on names and lists', () => {
  it.each([
    ['a strategy name', (f: string) => `/api/admin/projects/default/features/${f}/environments/development/strategies`, { name: 'n'.repeat(101) }, /name/],
    ['a dependency', (f: string) => `/api/admin/projects/default/features/${f}/dependencies`, { feature: 'n'.repeat(101) }, /feature/],
    ['a constraint context name', (f: string) => `/api/admin/projects/default/features/${f}/environments/development/strategies`,
      { name: 'default', constraints: [{ contextName: 'c'.repeat(101), operator: 'IN', values: ['a'] }] }, /contextName/],
  ])('refuses %s that is too long with a 400 naming it', async (_what, path, body, names) => {
    const feature = await steps.createFeature('default', unique('long'));

    const res = await call({ method: 'POST', path: path(feature), token, body });

    expectError(res, 400, 'ValidationError', names);
  });
});
