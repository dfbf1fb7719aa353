import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { runStartToExit, startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

/** `API_MAPPING_KEY=toggles npm start`: the local server plays a custom domain mapping the API under `toggles`. */
describe('npm start behind an API mapping key', () => {
  const adminSecret = formatSecret(['*'], '*');
  let server: StartedServer;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('mapped'),
      INIT_ADMIN_API_TOKENS: adminSecret,
      API_MAPPING_KEY: 'toggles',
    });
  });

  afterAll(stopStartedServers);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('says where the API is, serves it under the key, and nothing outside it', async () => {
    const health = await fetch(`${server.url}/toggles/health`);
    const projects = await fetch(`${server.url}/toggles/api/admin/projects`, { headers: { Authorization: adminSecret } });
    const outside = await fetch(`${server.url}/health`);

    expect(server.output()).toContain(`API mapping key: toggles (the API is at ${server.url}/toggles/api)`);
    expect(health.status).toBe(200);
    expect(projects.status).toBe(200);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ message: 'Not Found' });
  });

  it('refuses to start with a key API Gateway would refuse', async () => {
    const { code, output } = await runStartToExit({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('mapped'), API_MAPPING_KEY: 'to ggles',
    });

    expect(code).toBe(1);
    expect(output).toContain('API_MAPPING_KEY');
  });
});
