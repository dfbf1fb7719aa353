/**
 * The UI benchmark's own `npm start`, in a child process: the local runtime on a fresh in-memory
 * table (npm start's defaults), its first admin, the admin UI and the HTTP server, as
 * scripts/start.ts puts them together. It runs apart from the benchmark because the benchmark
 * drives Chromium through playwright on its own event loop, which would otherwise steal this
 * server's time (Unleash, the other side, runs in a process of its own too). The parent reads the
 * DynamoDB requests the server has sent (`counts`) to say what a page cost in reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFirstAdmin } from '../../lib/auth/first-admin.js';
import { installedUi } from '../../lib/ui/release.js';
import { createUiSite } from '../../lib/ui/site.js';
import { createServer, type Server } from 'node:http';
import { localApiGateway, startHttpServer } from '../http-server.js';
import { startLocalRuntime } from '../runtime.js';

/** What the parent sends. */
export type UiServerRequest = { type: 'counts' } | { type: 'stop' };

/** What the child answers. */
export type UiServerMessage =
  | { type: 'ready'; url: string; adminToken: string; withoutPreloadsUrl?: string }
  | { type: 'counts'; counts: import('../../lib/store/request-counter.js').RequestCounts }
  | { type: 'failed'; error: string };

const reply = (message: UiServerMessage) => process.send?.(message);

// The parent sets PORT, UNLEASH_URL and the admin's password. With UI_BENCH_DATA_DIR the table is
// kept there (the parent removes it), so that a server of other code can start on the same data;
// otherwise it lives in memory, as long as this process. With UI_BENCH_WITHOUT_PRELOADS_PORT the
// same runtime is served on that port too, its index.html without the preloads that
// UI_BENCH_WITHOUT_PRELOADS names ('api', 'modules', or both, the default; lib/ui/index-html.ts):
// an A/B of them on the same data and the same warm containers.
const keptDir = process.env.UI_BENCH_DATA_DIR;
const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'toggles-ui-bench-'));
const removeData = () => (keptDir ? undefined : rmSync(dataDir, { recursive: true, force: true }));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
try {
  const runtime = await startLocalRuntime({ inMemory: keptDir === undefined, dataDir, env });
  await ensureFirstAdmin(runtime.services.users, {
    username: runtime.config.defaultAdminUsername, password: runtime.config.defaultAdminPassword,
  });
  const server = await startHttpServer(runtime.handlers, {
    port: Number(process.env.PORT), apiMappingKey: runtime.apiMappingKey, throttling: runtime.throttling, concurrency: runtime.concurrency,
    ui: createUiSite(installedUi(), { baseUriPath: runtime.config.baseUriPath }),
  });
  const withoutPreloadsPort = process.env.UI_BENCH_WITHOUT_PRELOADS_PORT;
  const dropped = (process.env.UI_BENCH_WITHOUT_PRELOADS ?? 'api,modules').split(',');
  const withoutPreloads = withoutPreloadsPort ? await serveWithoutPreloads(runtime, Number(withoutPreloadsPort), server.url, dropped) : undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await new Promise((closed) => (withoutPreloads ? withoutPreloads.close(closed) : closed(undefined)));
    await runtime.stop();
    removeData();
    process.exit(0);
  };
  process.on('message', (message: UiServerRequest) => {
    if (message.type === 'counts') reply({ type: 'counts', counts: runtime.services.dynamoRequests.snapshot() });
    else void stop();
  });
  // The parent gone (killed outright) or a signal is a stop too: the engine must not outlive this run.
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  reply({
    type: 'ready', url: server.url, adminToken: runtime.generatedAdminToken ?? (runtime.config.initAdminApiTokens[0] as string),
    ...(withoutPreloads ? { withoutPreloadsUrl: `http://127.0.0.1:${withoutPreloadsPort}` } : {}),
  });
} catch (error) {
  removeData();
  reply({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) });
  process.exit(1);
}

/**
 * The second door of the A/B: the same local API Gateway and functions, index.html without the
 * preloads `dropped` names ('api': the API's, 'modules': the entry's module preloads). The service refuses changes whose Origin is not its own (lib/http/csrf.ts, the
 * login among them), and this door's origin is another port: its requests reach the functions
 * as if sent from the first door's pages, which they are in all but the port.
 */
async function serveWithoutPreloads(runtime: Awaited<ReturnType<typeof startLocalRuntime>>, port: number, ownUrl: string, dropped: readonly string[]): Promise<Server> {
  const ownOrigin = new URL(ownUrl).origin;
  const doorOrigin = `http://127.0.0.1:${port}`;
  const gateway = localApiGateway(runtime.handlers, {
    apiMappingKey: runtime.apiMappingKey, throttling: runtime.throttling, concurrency: runtime.concurrency,
    ui: createUiSite(installedUi(), {
      baseUriPath: runtime.config.baseUriPath,
      ...(dropped.includes('api') ? { preloadApi: false } : {}),
      ...(dropped.includes('modules') ? { modulePreloads: [] } : {}),
    }),
  });
  const door = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    if (req.headers.origin === doorOrigin) req.headers.origin = ownOrigin;
    if (req.headers.referer?.startsWith(`${doorOrigin}/`)) req.headers.referer = `${ownOrigin}${req.headers.referer.slice(doorOrigin.length)}`;
    gateway(req, res);
  });
  await new Promise<void>((listening, failed) => {
    door.once('error', failed);
    door.listen(port, '127.0.0.1', listening);
  });
  return door;
}
