/**
 * What each API request of a UI page costs this service alone, in-process: `npm start`'s runtime
 * on a fresh in-memory table, the UI benchmark's data (ui-seed.ts), the admin's session cookie,
 * and each request sent `calls` times one after another through the local HTTP server, after a
 * warm-up. Per request: the DynamoDB requests of one call (deterministic), and the CPU of this
 * process per call (the service, the AWS SDK, the local API Gateway and the AWS-like engine in
 * front of DynamoDB Local; DynamoDB Local itself is Java, apart), best of `rounds` rounds.
 *
 *   node --no-allocation-site-pretenuring --import tsx local/bench/ui-requests.ts [flags] [events] [calls] [rounds]
 *
 * The paths are those the dashboard and the flag page ask for (the waterfall of docs/performance.md,
 * "The admin UI"); on a page they run at once on one process, so their CPU adds up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFirstAdmin } from '../../lib/auth/first-admin.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { startHttpServer } from '../http-server.js';
import { startLocalRuntime } from '../runtime.js';
import { adminClient } from './seed.js';
import { apiProjectMaker, BIG_PROJECT, seedUiData, uiFlagName } from './ui-seed.js';

const [flags = 200, events = 600, calls = 30, rounds = 3] = process.argv.slice(2).map(Number);
const password = 'Bench-admin-1';
const flag = uiFlagName(BIG_PROJECT, Math.floor(flags / 2));
const today = new Date().toISOString().slice(0, 10);
const PAGES: Record<string, string[]> = {
  'every page': ['/api/admin/user', '/api/admin/ui-config'],
  dashboard: [
    '/api/admin/projects', '/api/admin/environments', '/api/admin/personal-dashboard', `/api/admin/personal-dashboard/${BIG_PROJECT}`,
    // The dashboard's own day of events, as the UI asks for it (today, in UTC).
    `/api/admin/search/events?from=IS%3A${today}&to=IS%3A${today}&type=IS_ANY_OF%3Astrategy-updated%2Cfeature-created%2Cfeature-environment-enabled%2Cfeature-environment-disabled`,
  ],
  'flag page': [
    `/api/admin/projects/${BIG_PROJECT}/overview`, '/api/admin/tag-types', `/api/admin/features/${flag}/tags`, '/api/admin/tags/simple',
    `/api/admin/projects/${BIG_PROJECT}/features/${flag}?variantEnvironments=true`, `/api/admin/client-metrics/features/${flag}`,
    '/api/admin/impact-metrics/metadata', `/api/admin/projects/${BIG_PROJECT}/features/${flag}/impact-metrics/config`,
    `/api/admin/projects/${BIG_PROJECT}/features/${flag}/parent-variants`, `/api/admin/projects/${BIG_PROJECT}/dependencies`,
    `/api/admin/environments/project/${BIG_PROJECT}`,
  ],
};

const dataDir = mkdtempSync(join(tmpdir(), 'toggles-ui-requests-'));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
const runtime = await startLocalRuntime({ inMemory: true, dataDir, env: { ...env, UNLEASH_DEFAULT_ADMIN_PASSWORD: password } });
let server: Awaited<ReturnType<typeof startHttpServer>> | undefined;
try {
  await ensureFirstAdmin(runtime.services.users, { username: runtime.config.defaultAdminUsername, password: runtime.config.defaultAdminPassword });
  server = await startHttpServer(runtime.handlers, { port: 0, apiMappingKey: runtime.apiMappingKey, throttling: runtime.throttling, concurrency: runtime.concurrency });
  const url = server.url;
  const token = runtime.generatedAdminToken ?? (runtime.config.initAdminApiTokens[0] as string);
  const admin = adminClient(url, token);
  const seeded = await seedUiData(admin, apiProjectMaker(admin), { bigProjectFlags: flags, events, concurrency: 8 }, (line) => console.error(line));
  console.error(`seeded: ${seeded.calls} calls in ${seeded.seconds.toFixed(0)} s, ${seeded.events} events`);
  const login = await fetch(`${url}/auth/simple/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }),
  });
  const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  if (login.status !== 200 || !cookie) throw new Error(`login answered ${login.status}`);
  const get = async (path: string) => {
    const answer = await fetch(`${url}${path}`, { headers: { cookie } });
    await answer.arrayBuffer();
    return answer.status;
  };
  console.log(`| page | request | status | DynamoDB requests per call | CPU ms per call (best of ${rounds} × ${calls}) |`);
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const [page, paths] of Object.entries(PAGES)) {
    for (const path of paths) {
      const status = await get(path);
      const before = runtime.services.dynamoRequests.snapshot();
      await get(path);
      const spent = countsSince(before, runtime.services.dynamoRequests.snapshot());
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < rounds; round += 1) {
        const cpu = process.cpuUsage();
        for (let call = 0; call < calls; call += 1) await get(path);
        const used = process.cpuUsage(cpu);
        best = Math.min(best, (used.user + used.system) / 1000 / calls);
      }
      console.log(`| ${page} | ${path} | ${status} | ${spent.total} | ${best.toFixed(2)} |`);
    }
  }
} finally {
  await server?.close();
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
