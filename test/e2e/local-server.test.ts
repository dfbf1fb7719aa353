import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

/** Starts wait for the banner, however long a busy machine takes; the hooks bound them, not the tests. */
const STARTS = 300_000;

/**
 * The tests below check DynamoDB Local's own process through the address the banner prints. A run
 * with AWS_LIKE_DYNAMODB=1 would hand its children the switch, and npm start would then print the
 * address of the AWS-like engine it runs in-process in front of DynamoDB Local (which dies with
 * npm start, whatever becomes of DynamoDB Local): these children get the switch removed.
 */
const OWN_ENGINE = { AWS_LIKE_DYNAMODB: '' };

// Whatever a hook started is stopped, even when the hook timed out before handing it over.
afterAll(stopStartedServers, STARTS);

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
  }, STARTS);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  }, STARTS);

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

  it('started on PORT=0, reports the port it listens on as its own address (invite links and the UI use it)', async () => {
    const config = await json(await get('/api/admin/ui-config', adminSecret));

    expect(new URL(config.unleashUrl).port).toBe(new URL(server.url).port);
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
  const name = unique('kept');
  let first: { code: number | null; engineAnswersAfterStop: boolean };
  let token: string;
  let second: StartedServer;

  // Two starts one after the other, each with its own engine: in the hook, whose timeout allows
  // for a slow machine, so the tests below only read what happened.
  beforeAll(async () => {
    const server = await startServerProcess({ ...OWN_ENGINE, DATA_DIR: dataDir });
    token = /admin token: (\S+)/.exec(server.output())?.[1] ?? '';
    const engineUrl = /dynamodb: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1] ?? '';
    await fetch(`${server.url}/api/admin/strategies`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, parameters: [] }),
    });
    const code = await server.stop();
    first = { code, engineAnswersAfterStop: await accepts(engineUrl) };
    second = await startServerProcess({ ...OWN_ENGINE, DATA_DIR: dataDir });
  }, STARTS);

  afterAll(async () => {
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, STARTS);

  it('prints a generated admin token', () => {
    expect(token).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
  });

  it('stops its engine when it stops', () => {
    expect(first.code).toBe(0);
    expect(first.engineAnswersAfterStop).toBe(false);
  });

  it('keeps data and token across a restart', async () => {
    const res = await fetch(`${second.url}/api/admin/strategies/${name}`, { headers: { Authorization: token } });

    expect(second.output()).toContain(token);
    expect(res.status).toBe(200);
  });
});

describe('npm start killed outright, as a timed-out test or a crash would leave it', () => {
  let server: StartedServer;
  let engineUrl: string;

  beforeAll(async () => {
    server = await startServerProcess(OWN_ENGINE, ['--in-memory']);
    engineUrl = /dynamodb: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1] ?? '';
  }, STARTS);

  it('leaves its engine running, which stopping its process group ends', async () => {
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    const orphanAnswers = await accepts(engineUrl);

    const code = await server.stop();

    expect(code).toBeNull();
    expect(orphanAnswers).toBe(true);
    expect(await accepts(engineUrl)).toBe(false);
  });
});

describe('npm start stopped through npm, as a process manager or a container runtime would', () => {
  let server: StartedServer;
  let engineUrl: string;

  beforeAll(async () => {
    server = await startServerProcess(OWN_ENGINE, ['--in-memory'], { viaNpm: true });
    engineUrl = /dynamodb: (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1] ?? '';
  }, STARTS);

  it('stops its server and its engine when npm gets SIGTERM', async () => {
    process.kill(server.pid, 'SIGTERM');
    // npm, its shell, the server and the engine: all of them, however long stopping takes.
    await server.groupEnded();

    expect(await accepts(server.url)).toBe(false);
    expect(await accepts(engineUrl)).toBe(false);
    expect(server.output()).toContain('parent process exited: stopping');
  }, STARTS);
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
