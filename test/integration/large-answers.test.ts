import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES, fitAnswer, LAMBDA_MAX_RESPONSE_BYTES } from '../../lib/http/large-answers.js';
import { jsonTextResult } from '../../lib/http/responses.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { LAMBDA_MAX_PAYLOAD_BYTES, responsePayloadBytes } from '../../local/aws-limits.js';
import { startHttpServer, type LocalServer } from '../../local/http-server.js';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime.js';
import { adminSession, resendWhileUnavailable } from '../support/api.js';
import { seededRandom } from '../support/seeded-random.js';
import { seedFeatures, storedFeature } from '../support/seed-features.js';
import { testServices, unique } from '../support/services.js';

const MB = 1024 * 1024;
const SEARCH_PAGE = '/api/admin/search/features?offset=0&limit=100';

describe('gzip for large JSON answers', () => {
  /** A JSON text of exactly `bytes` bytes. */
  const jsonOf = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });

  it(`compresses an answer of ${COMPRESSION_THRESHOLD_BYTES} bytes or more for a caller that accepts gzip, and says it varies`, async () => {
    const text = jsonOf(COMPRESSION_THRESHOLD_BYTES);
    const result = await fitAnswer(jsonTextResult(200, text), 'gzip, deflate, br');
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-type': 'application/json; charset=utf-8' });
    expect(gunzipSync(Buffer.from(result.body ?? '', 'base64')).toString('utf8')).toBe(text);
  });

  it('leaves a smaller answer as it is, without Vary', async () => {
    const text = jsonOf(COMPRESSION_THRESHOLD_BYTES - 1);
    const result = await fitAnswer(jsonTextResult(200, text), 'gzip');
    expect(result).toEqual(jsonTextResult(200, text));
  });

  it('sends a large answer plain to a caller that does not take gzip (none, or gzip;q=0), with Vary', async () => {
    const text = jsonOf(50_000);
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0, deflate']) {
      const result = await fitAnswer(jsonTextResult(200, text), acceptEncoding);
      expect(result.isBase64Encoded).toBeUndefined();
      expect(result.body).toBe(text);
      expect(result.headers.vary).toBe('Accept-Encoding');
      expect(result.headers['content-encoding']).toBeUndefined();
    }
  });

  it('adds Accept-Encoding to a Vary the answer already has, once', async () => {
    const text = jsonOf(5_000);
    expect((await fitAnswer(jsonTextResult(200, text, { vary: 'Origin' }), 'gzip')).headers.vary).toBe('Origin, Accept-Encoding');
    expect((await fitAnswer(jsonTextResult(200, text, { vary: 'accept-encoding' }), 'gzip')).headers.vary).toBe('accept-encoding');
  });

  it('holds answers to the same 6 MB the local server enforces, counted as Lambda counts them', () => {
    expect(LAMBDA_MAX_RESPONSE_BYTES).toBe(LAMBDA_MAX_PAYLOAD_BYTES);
    const quoted = jsonTextResult(200, JSON.stringify({ list: Array.from({ length: 1000 }, () => '"q"') }));
    expect(responsePayloadBytes(quoted)).toBeGreaterThan(Buffer.byteLength(quoted.body ?? ''));
  });

  describe('on a real route', () => {
    const { services, call, token } = adminSession();
    let project: string;

    beforeAll(async () => {
      project = unique('gz');
      expect((await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: project, name: project } })).status).toBe(201);
      await seedFeatures(services.featureStore, Array.from({ length: 30 }, (_, i) => storedFeature(`${project}-${i}`, project, { description: 'd'.repeat(200) })));
    });

    it('answers the search gzip-compressed to a caller that accepts gzip, the same JSON as plain', async () => {
      const path = `/api/admin/search/features?project=IS:${project}&limit=100`;
      const zipped = await call({ method: 'GET', path, token, headers: { 'Accept-Encoding': 'gzip' } });
      const plain = await call({ method: 'GET', path, token });
      expect(zipped.status).toBe(200);
      expect(zipped.isBase64Encoded).toBe(true);
      expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
      expect(plain.isBase64Encoded).toBe(false);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.body).toEqual(plain.body);
      expect(plain.body.total).toBe(30);
    });

    it('answers a small page plain even to a caller that accepts gzip', async () => {
      const res = await call({ method: 'GET', path: `/api/admin/search/features?project=IS:${project}&limit=1&query=nothing-matches`, token, headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.isBase64Encoded).toBe(false);
      expect(res.headers.vary).toBeUndefined();
    });
  });
});

/**
 * Through the local server, which holds each function's answer to Lambda's 6 MB: the deprecated
 * full lists (E15, the state export) past it answer a 400 that names the paginated search,
 * instead of the 500 API Gateway gives for a failed invocation.
 */
describe('the deprecated full lists past Lambda\'s 6 MB', () => {
  const adminSecret = formatSecret(['*'], '*');
  const tableName = unique('large');
  let runtime: LocalRuntime;
  let server: LocalServer;
  const get = (path: string, acceptEncoding: string) =>
    resendWhileUnavailable(() => fetch(`${server.url}${path}`, { headers: { authorization: adminSecret, 'accept-encoding': acceptEncoding } }));

  beforeAll(async () => {
    runtime = await startLocalRuntime({
      inMemory: true,
      dataDir: '.data',
      env: { DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: tableName, AWS_REGION: 'local', INIT_ADMIN_API_TOKENS: adminSecret },
    });
    // Not a test of API Gateway's 30 s: reading and building 7 MB must not race this machine's speed.
    server = await startHttpServer(runtime.handlers, { port: 0, functionTimeoutMs: 300_000, integrationTimeoutMs: 300_000 });
    // Seeded straight into DynamoDB Local: only what the functions read goes through the AWS-like engine.
    const seeding = testServices({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: inject('dynamodbLocal').endpoint });
    // 2,600 features with descriptions of 2,000 characters (the most a description may have), 6 KB
    // each in UTF-8: E15 is about 18 MB of JSON and the state export about 16 MB; both compress well.
    const description = '機能の説明、長い。'.repeat(250).slice(0, 2000);
    await seedFeatures(seeding.featureStore, Array.from({ length: 2600 }, (_, i) => storedFeature(`large-${String(i).padStart(4, '0')}`, 'default', { description })));
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await runtime?.stop();
  });

  it('answers E15 over 6 MB plain with 400 ExceedsLimitError naming the paginated search and gzip', async () => {
    const res = await get('/api/admin/features', 'identity');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { name: string; message: string };
    expect(body).toMatchObject({ name: 'ExceedsLimitError', id: expect.any(String) });
    expect(body.message).toContain(SEARCH_PAGE);
    expect(body.message).toContain('Accept-Encoding: gzip');
    expect(body.message).toMatch(/would be \d+\.\d MB, more than the 6 MB/);
  });

  it('answers E15 whole, gzip-compressed, to a caller that accepts gzip', async () => {
    const res = await get('/api/admin/features', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(6 * MB);
    expect(JSON.parse(text).features.filter((f: { name: string }) => f.name.startsWith('large-'))).toHaveLength(2600);
  });

  it('answers the state export the same way: 400 plain, 200 gzip-compressed', async () => {
    const plain = await get('/api/admin/state/export', 'identity');
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { message: string }).message).toContain(SEARCH_PAGE);
    const zipped = await get('/api/admin/state/export', 'gzip');
    expect(zipped.status).toBe(200);
    expect(JSON.parse(await zipped.text()).features.length).toBeGreaterThanOrEqual(2600);
  });

  it('pages the same features through the search: 100 at a time, the total counting all', async () => {
    const res = await get(`${SEARCH_PAGE.replace('offset=0', 'offset=2300')}&sortBy=name&query=large-`, 'gzip');
    expect(res.status).toBe(200);
    const page = (await res.json()) as { total: number; features: Array<{ name: string }> };
    expect(page.total).toBe(2600);
    expect(page.features.map((f: { name: string }) => f.name)).toEqual(Array.from({ length: 100 }, (_, i) => `large-${2300 + i}`));
  });

  it('answers 400 naming the search even to a gzip caller once the compressed answer passes 6 MB', async () => {
    // 1,300 more features whose descriptions gzip cannot shrink (random CJK text, 6 KB each in UTF-8).
    const seeding = testServices({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: inject('dynamodbLocal').endpoint });
    const { next } = seededRandom('incompressible descriptions');
    const random = () => Array.from({ length: 2000 }, () => String.fromCharCode(0x4e00 + Math.floor(next() * 20000))).join('');
    await seedFeatures(seeding.featureStore, Array.from({ length: 1300 }, (_, i) => storedFeature(`noisy-${String(i).padStart(4, '0')}`, 'default', { description: random() })));
    const res = await get('/api/admin/features', 'gzip');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { name: string; message: string };
    expect(body.name).toBe('ExceedsLimitError');
    expect(body.message).toContain('even gzip-compressed');
    expect(body.message).toContain(SEARCH_PAGE);
    expect(body.message).not.toContain('Accept-Encoding');
  }, 300_000);
});
