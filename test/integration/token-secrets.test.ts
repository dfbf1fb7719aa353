import { createHash } from 'node:crypto';
import * as crypto from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { queryCollection } from '../../lib/store/query.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { apiClient } from '../support/api.js';
import { adminToken, testConfig, testServices, unique } from '../support/services.js';

// Watch the comparison the authenticator makes, without changing it.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const services = testServices();
const call = apiClient(services);
let admin: string;

beforeAll(async () => {
  admin = await adminToken(services);
});

describe('API token secrets', () => {
  it('are stored only as a SHA-256 hash: no stored item holds the secret or its random part', async () => {
    const tokenName = unique('hashed');
    const created = await call({ method: 'POST', path: '/api/admin/api-tokens', token: admin, body: { tokenName, type: 'client', environment: 'development', projects: ['*'] } });
    const secret = created.body.secret as string;
    const config = testConfig();

    const items = await queryCollection(createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), config.tableName, keys.apiTokens());

    const mine = items.filter((item) => item.tokenName === tokenName);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.secretHash).toBe(createHash('sha256').update(secret, 'utf8').digest('hex'));
    expect(JSON.stringify(items)).not.toContain(secret.split('.')[1]);
  });

  it('are compared in constant time, on hashes of equal length', async () => {
    const secret = await adminToken(services);
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();

    const res = await call({ method: 'GET', path: '/api/admin/projects', token: secret });

    expect(res.status).toBe(200);
    expect(compare).toHaveBeenCalled();
    const [left, right] = compare.mock.calls[0] as [Buffer, Buffer];
    expect(left.length).toBe(32);
    expect(right.length).toBe(32);
  });
});
