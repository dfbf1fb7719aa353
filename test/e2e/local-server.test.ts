import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

describe('npm start against the shared engine, over HTTP', () => {
  const adminSecret = formatSecret(['*'], '*');
  const clientSecret = `*:development.${unique('e2e')}`;
  let server: StartedServer;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('e2e'),
      INIT_ADMIN_API_TOKENS: adminSecret,
      INIT_CLIENT_API_TOKENS: clientSecret,
    });
  });

  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  const get = (path: string, token?: string) =>
    fetch(`${server.url}${path}`, { headers: token ? { Authorization: token } : {} });

  it('answers /health without a token and everything under /api only with one', async () => {
    const health = await get('/health');
    const anonymous = await get('/api/admin/ui-config');

    expect(health.status).toBe(200);
    expect(await json(health)).toEqual({ health: 'GOOD' });
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).name).toBe('AuthenticationRequired');
  });

  it('serves the README tour: create a strategy type, list it, deprecate it', async () => {
    const name = unique('readme');

    const created = await fetch(`${server.url}/api/admin/strategies`, {
      method: 'POST',
      headers: { Authorization: adminSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, parameters: [{ name: 'tenants', type: 'list' }] }),
    });
    const deprecated = await fetch(`${server.url}/api/admin/strategies/${name}/deprecate`, {
      method: 'POST',
      headers: { Authorization: adminSecret },
    });
    const listed = await json(await get('/api/admin/strategies', adminSecret));

    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`strategies/${name}`);
    expect(deprecated.status).toBe(200);
    expect(listed.strategies.find((s: { name: string }) => s.name === name)).toMatchObject({ deprecated: true });
  });

  it('creates an SDK token over HTTP and refuses it on the admin API with 403', async () => {
    const created = await fetch(`${server.url}/api/admin/api-tokens`, {
      method: 'POST',
      headers: { Authorization: adminSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tokenName: unique('sdk'), type: 'client', environment: 'production' }),
    });
    const { secret } = await json(created);

    const refused = await get('/api/admin/ui-config', secret);
    const bootstrapClient = await get('/api/admin/strategies', clientSecret);

    expect(created.status).toBe(201);
    expect(refused.status).toBe(403);
    expect((await json(refused)).name).toBe('NoAccessError');
    expect(bootstrapClient.status).toBe(403);
  });

  it('answers unknown /api paths with 404 NotFoundError, and collapses repeated slashes', async () => {
    const unknown = await get('/api/admin/nowhere', adminSecret);
    const doubled = await get('//api//admin//ui-config', adminSecret);

    expect(unknown.status).toBe(404);
    expect((await json(unknown)).name).toBe('NotFoundError');
    expect(doubled.status).toBe(200);
  });

  it('decodes a base64 Lambda answer as API Gateway does: the SDK gets gzip bytes on the wire', async () => {
    const raw = await rawGet(`${server.url}/api/client/features`, { authorization: clientSecret, 'accept-encoding': 'gzip' });
    const plain = await fetch(`${server.url}/api/client/features`, { headers: { Authorization: clientSecret, 'Accept-Encoding': 'identity' } });

    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers.vary).toBe('Accept-Encoding');
    expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
    expect(gunzipSync(raw.body).toString('utf8')).toBe(await plain.text());
  });
});

describe('npm start with its own embedded engine and a data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toggles-data-'));

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a generated admin token, keeps data and token across a restart, and stops its engine', async () => {
    const first = await startServerProcess({ DATA_DIR: dataDir });
    const token = /admin token: (\S+)/.exec(first.output())?.[1] ?? '';
    const engineUrl = /dynamodb: (http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())?.[1] ?? '';
    const name = unique('kept');
    await fetch(`${first.url}/api/admin/strategies`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, parameters: [] }),
    });
    expect(await first.stop()).toBe(0);
    expect(await accepts(engineUrl)).toBe(false);

    const second = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const res = await fetch(`${second.url}/api/admin/strategies/${name}`, { headers: { Authorization: token } });

      expect(token).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
      expect(second.output()).toContain(token);
      expect(res.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

/** Response bodies in these tests are read loosely, as a curl user would. */
const json = (res: Response): Promise<any> => res.json() as Promise<any>;

function accepts(url: string): Promise<boolean> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A GET that keeps the body as sent (fetch would unpack gzip on its own). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}
