import { inject } from 'vitest';
import { formatSecret } from '../../../lib/tokens/model.js';
import { startServerProcess, type StartedServer } from '../../support/local-server.js';
import { unique } from '../../support/services.js';
import { httpCall, type SpecCall } from '../../support/client-spec.js';
import { accessEntries, countsOf, type AccessEntry, type AppCounts } from './access-log.js';

/** One `npm start` of a world: a table of its own on the run's engine, with its access log. */
export interface WorldServer {
  url: string;
  server: StartedServer;
  adminToken: string;
  /** The handlers' test caller's shape, over HTTP (test/support/client-spec.ts). */
  call: SpecCall;
  /** An admin call that throws on a non-2xx answer and answers the parsed body. */
  admin(method: string, path: string, body?: unknown): Promise<any>;
  /** Makes an API token of this scope and answers its secret. */
  token(type: 'client' | 'frontend', environment: string, projects?: string[]): Promise<string>;
  access(): AccessEntry[];
  counts(app?: string): AppCounts;
  stop(): Promise<number | null>;
}

/**
 * Starts `npm start` on the run's DynamoDB engine with a fresh table named after `label`, an
 * admin token known to the test and the access log on. `stopStartedServers` (afterAll) ends it
 * whatever happens.
 */
export async function startWorldServer(label: string): Promise<WorldServer> {
  const adminToken = formatSecret(['*'], '*');
  const server = await startServerProcess({
    DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
    TABLE_NAME: unique(label.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 40)),
    INIT_ADMIN_API_TOKENS: adminToken,
    ACCESS_LOG: '1',
  });
  const call = httpCall(server.url);
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await call({ method, path, token: adminToken, body });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  };
  return {
    url: server.url,
    server,
    adminToken,
    call,
    admin,
    token: async (type, environment, projects = ['default']) =>
      (await admin('POST', '/api/admin/api-tokens', { tokenName: unique(`${type}-${environment}`), type, environment, projects })).secret,
    access: () => accessEntries(server.output()),
    counts: (app) => countsOf(accessEntries(server.output()), app),
    stop: () => server.stop(),
  };
}

/**
 * Resolves once `condition` holds of the access log, checked as the log grows; only the hook or
 * test timeout bounds the wait, so a slow machine only waits longer.
 */
export async function untilLogged(world: WorldServer, condition: (entries: AccessEntry[]) => boolean): Promise<AccessEntry[]> {
  for (;;) {
    const entries = world.access();
    if (condition(entries)) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
