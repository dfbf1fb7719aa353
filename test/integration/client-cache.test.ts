import { describe, expect, it } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import type { Services } from '../../local/app-services.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature, rollout, sdkToken } from '../support/client.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { seedFeatures as storeFeatures } from '../support/seed-features.js';

/** What the SDK sends: the spec header, gzip, and the last ETag. */
const SDK_HEADERS = { 'Unleash-Client-Spec': '5.2.0', 'Accept-Encoding': 'gzip' };

async function sdkSetup(config: Record<string, string> = {}) {
  const services = await isolatedServices(config);
  const call = apiClient(services);
  const token = await sdkToken(services);
  const poll = (headers: Record<string, string> = {}) =>
    call({ method: 'GET', path: '/api/client/features', token, headers: { ...SDK_HEADERS, ...headers } });
  return { services, call, token, poll };
}

/** DynamoDB requests, by operation, that `work` sends through these services. */
async function requestsOf(services: Services, work: () => Promise<unknown>) {
  const before = services.dynamoRequests.snapshot();
  await work();
  return countsSince(before, services.dynamoRequests.snapshot());
}

/**
 * Stores features straight through the store port, many per transaction, sent again while
 * throttled (test/support/seed-features.ts). This test counts the requests of polls, not of seeding.
 */
async function seedFeatures(services: Services, from: number, to: number): Promise<void> {
  const features = Array.from({ length: to - from }, (_, offset) => from + offset).map((index): Feature => ({
    name: `seeded-${String(index).padStart(4, '0')}`, project: 'default', type: 'release', description: null,
    impressionData: false, stale: false, archived: false, archivedAt: null, createdAt: new Date().toISOString(),
    environments: { development: { enabled: index % 2 === 0, strategies: [rollout()], variants: [] } },
    tags: [], dependencies: [], children: [], version: 1,
  }));
  await storeFeatures(services.featureStore, features);
}

describe('DynamoDB work of a warm poll', () => {
  it('is one Query of the revision (its shards, one read unit) with checks on every poll, the same at 10 and at 1,000 flags', async () => {
    const { services, poll } = await sdkSetup({ REVISION_CHECK_INTERVAL_MS: '0' });
    await seedFeatures(services, 0, 10);
    const small = await poll();
    const atTen = await requestsOf(services, () => poll({ 'If-None-Match': small.headers.etag as string }));
    const fullAtTen = await requestsOf(services, () => poll());

    await seedFeatures(services, 10, 1000);
    const large = await poll();
    const atThousand = await requestsOf(services, () => poll({ 'If-None-Match': large.headers.etag as string }));
    const fullAtThousand = await requestsOf(services, () => poll());

    expect(large.body.features).toHaveLength(1000);
    expect(atTen).toEqual({ total: 1, byOperation: { Query: 1 } });
    expect(atThousand).toEqual(atTen);
    expect(fullAtTen).toEqual(atTen);
    expect(fullAtThousand).toEqual(atTen);
  });

  it('is nothing at all within the revision-check interval', async () => {
    const { services, poll } = await sdkSetup({ REVISION_CHECK_INTERVAL_MS: '60000' });
    const first = await poll();

    const warm = await requestsOf(services, () => poll({ 'If-None-Match': first.headers.etag as string }));

    expect(warm.total).toBe(0);
  });
});

describe('the stored payload', () => {
  it('serves gzip bytes, base64-encoded for API Gateway, that unpack to the plain JSON', async () => {
    const { services, poll } = await sdkSetup();
    await putFeature(services, { name: unique('gz') });

    const zipped = await poll();
    const plain = await poll({ 'Accept-Encoding': 'identity' });

    expect(zipped.isBase64Encoded).toBe(true);
    expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', etag: plain.headers.etag });
    expect(plain.isBase64Encoded).toBe(false);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(zipped.text).toBe(plain.text);
  });

  it('answers a gzip poll whose If-None-Match matches with 304 and no body', async () => {
    const { poll } = await sdkSetup();
    const first = await poll();

    const again = await poll({ 'If-None-Match': first.headers.etag as string });

    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['content-encoding']).toBeUndefined();
  });
});

describe('freshness', () => {
  it('serves a write of the same process on the next poll, however long the interval', async () => {
    const { services, poll } = await sdkSetup({ REVISION_CHECK_INTERVAL_MS: '600000' });
    const before = await poll();
    const name = unique('same-process');

    await putFeature(services, { name });
    const after = await poll({ 'If-None-Match': before.headers.etag as string });

    expect(after.status).toBe(200);
    expect(after.body.features.map((f: { name: string }) => f.name)).toContain(name);
  });

  it('never answers older data than the SDK already has from another container (monotonic reads)', async () => {
    const slow = await sdkSetup({ REVISION_CHECK_INTERVAL_MS: '600000' });
    const other = testServices({ TABLE_NAME: slow.services.config.tableName, REVISION_CHECK_INTERVAL_MS: '600000' });
    const otherPoll = () => apiClient(other)({ method: 'GET', path: '/api/client/features', token: slow.token, headers: SDK_HEADERS });
    const stale = await slow.poll();
    const name = unique('elsewhere');

    await putFeature(other, { name });
    const withinInterval = await slow.poll();
    const fromOther = await otherPoll();
    const monotonic = await slow.poll({ 'If-None-Match': fromOther.headers.etag as string });
    const refreshed = await slow.poll();

    expect(withinInterval.headers.etag).toBe(stale.headers.etag);
    expect(fromOther.headers.etag).not.toBe(stale.headers.etag);
    expect(monotonic.status).toBe(304);
    expect(refreshed.headers.etag).toBe(fromOther.headers.etag);
    expect(refreshed.body.features.map((f: { name: string }) => f.name)).toContain(name);
  });
});

describe('the token cache', () => {
  it('stops accepting a token the moment this process deletes it', async () => {
    const { services, call } = await sdkSetup({ TOKEN_CACHE_TTL_MS: '600000' });
    const admin = await adminToken(services);
    const created = await call({
      method: 'POST', path: '/api/admin/api-tokens', token: admin,
      body: { tokenName: unique('doomed'), type: 'client', environment: 'development' },
    });
    const secret = created.body.secret as string;
    const poll = () => call({ method: 'GET', path: '/api/client/features', token: secret });
    const accepted = await poll();

    await call({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(secret)}`, token: admin });
    const refused = await poll();

    expect(accepted.status).toBe(200);
    expect(accepted.body.features).toEqual(expect.any(Array));
    expect(refused.status).toBe(401);
    expect(refused.body.name).toBe('AuthenticationRequired');
    expect(refused.body.message).toContain('unknown or has expired');
    expect(refused.body.features).toBeUndefined();
  });
});
