import { describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { adminToken, testServices } from '../support/services.js';

/** A second process (a second warm Lambda container) on the same table, with its own caches. */
function otherContainer(services: Services, config: Record<string, string>): Services {
  return testServices({ ...config, TABLE_NAME: services.config.tableName });
}

describe('revoking an API token', () => {
  it('reaches another warm instance at its next revision check, long before the token cache TTL', async () => {
    // prepare: two containers, the token cached in the poller for a full minute
    const config = { REVISION_CHECK_INTERVAL_MS: '0', TOKEN_CACHE_TTL_MS: '60000' };
    const admin = await isolatedServices(config);
    const poller = otherContainer(admin, config);
    const sdk = await sdkToken(admin);
    const poll = apiClient(poller);
    const first = await poll({ method: 'GET', path: '/api/client/features', token: sdk });
    const adminCall = apiClient(admin);
    const token = await adminToken(admin);

    // act: the other container deletes it
    const deleted = await adminCall({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(sdk)}`, token });
    const after = await poll({ method: 'GET', path: '/api/client/features', token: sdk });

    // assert
    expect(first.status).toBe(200);
    expect(first.body.features).toEqual(expect.any(Array));
    expect(deleted.status).toBe(200);
    expect(after.status).toBe(401);
    expect(after.body.name).toBe('AuthenticationRequired');
    expect(after.body.message).toContain('unknown or has expired');
    expect(after.body.features).toBeUndefined();
  });

  it('costs a warm poll no DynamoDB read beyond the one revision read it already makes', async () => {
    const services = await isolatedServices({ REVISION_CHECK_INTERVAL_MS: '0' });
    const sdk = await sdkToken(services);
    const poll = apiClient(services);
    const first = await poll({ method: 'GET', path: '/api/client/features', token: sdk });

    const before = services.dynamoRequests.snapshot();
    const again = await poll({ method: 'GET', path: '/api/client/features', token: sdk, headers: { 'If-None-Match': first.headers.etag as string } });
    const work = countsSince(before, services.dynamoRequests.snapshot());

    expect(again.status).toBe(304);
    expect(work).toEqual({ total: 1, byOperation: { Query: 1 } });
  });

  it('does not move the revision, so SDKs keep their ETag', async () => {
    const services = await isolatedServices();
    const before = await services.revisions.current();

    await sdkToken(services);

    expect(await services.revisions.current()).toBe(before);
  });
});
