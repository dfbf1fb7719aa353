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
import { startHttpServer } from '../http-server.js';
import { startLocalRuntime } from '../runtime.js';

/** What the parent sends. */
export type UiServerRequest = { type: 'counts' } | { type: 'stop' };

/** What the child answers. */
export type UiServerMessage =
  | { type: 'ready'; url: string; adminToken: string }
  | { type: 'counts'; counts: import('../../lib/store/request-counter.js').RequestCounts }
  | { type: 'failed'; error: string };

const reply = (message: UiServerMessage) => process.send?.(message);

// The parent sets PORT, UNLEASH_URL and the admin's password. With UI_BENCH_DATA_DIR the table is
// kept there (the parent removes it), so that a server of other code can start on the same data;
// otherwise it lives in memory, as long as this process.
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
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
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
  reply({ type: 'ready', url: server.url, adminToken: runtime.generatedAdminToken ?? (runtime.config.initAdminApiTokens[0] as string) });
} catch (error) {
  removeData();
  reply({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) });
  process.exit(1);
}
