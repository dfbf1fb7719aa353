/**
 * `npm start`: the whole service on a laptop. DynamoDB Local with data under DATA_DIR (`.data/`),
 * or in memory with `--in-memory` / IN_MEMORY=true; the HTTP server on 127.0.0.1:PORT (4242).
 *
 * package.json starts node with `--no-allocation-site-pretenuring` (as do `npm run bench`, the UI
 * bench's server and local/bench/poll-profile.ts), because this one process plays API Gateway and
 * every function at once. V8 allocates the objects of a literal straight in the old generation
 * once most of them have outlived a young-generation collection; the admin requests (which wait
 * on DynamoDB for milliseconds) and the SDK polls (answered within one turn of the event loop) run
 * through the same literals here (the v2 event, middy's request, the answer), so once the bench
 * had seeded its flags through the admin API, every later poll's objects were made old and kept
 * what they point to alive through each young collection: 1.4 MB survived each one instead of
 * 20 KB, and the collections cost 8-15 µs per poll under load, about as much as the local API
 * Gateway's own work and the handler's together (local/bench/poll-profile.ts shows both). In AWS
 * each group is a process of its own, so a client function never sees an admin request's
 * literals. The setting only decides where objects are allocated, never what a program computes.
 * It is on the command line rather than set from here because V8's flags changed after start-up
 * may behave unpredictably (Node's v8.setFlagsFromString), and because the test workers that
 * start the server in-process would have had it switched for every other test in them.
 */
import { resolve } from 'node:path';
import { startFunctionUrlServer, localFrontDoor } from '../local/function-url.js';
import { startHttpServer, type LocalServer } from '../local/http-server.js';
import { startLocalRuntime, type LocalRuntime } from '../local/runtime.js';
import { describeStartupFailure, ensureWritableDir } from '../local/startup-problem.js';
import { freePort } from '../local/dynamodb-local.js';
import { ensureFirstAdmin, type FirstAdminOutcome } from '../lib/auth/first-admin.js';
import { installedUi } from '../lib/ui/release.js';
import { createUiSite, type UiSite } from '../lib/ui/site.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Read before anything else: the parent may go while the engine starts (a loaded machine).
const parent = process.ppid;

const inMemory = process.argv.includes('--in-memory') || process.env.IN_MEMORY === 'true';
/**
 * PORT=0 (any free port) is settled before anything starts: the service writes its own address
 * (UNLEASH_URL) into invite and reset links and the UI's configuration, so it must know the port.
 */
const requestedPort = Number(process.env.PORT ?? 4242);
const port = requestedPort === 0 ? await freePort() : requestedPort;
const dataDir = resolve(process.env.DATA_DIR ?? '.data');

// LOCAL_FRONT_DOOR=functionUrl: the client function's URL as well, on FUNCTION_URL_PORT (PORT + 1).
const functionUrlPort = Number(process.env.FUNCTION_URL_PORT ?? (requestedPort === 0 ? 0 : port + 1));

async function start(): Promise<{
  runtime: LocalRuntime; server: LocalServer; functionUrl: LocalServer | undefined; ui: UiSite; firstAdmin: FirstAdminOutcome;
}> {
  const frontDoor = localFrontDoor(process.env);
  // Checked first, so a data directory that takes no files is named before the engine starts.
  if (!inMemory) ensureWritableDir(dataDir);
  const runtime = await startLocalRuntime({
    inMemory,
    dataDir,
    env: { UNLEASH_URL: `http://localhost:${port}`, ...process.env },
  });
  let server: LocalServer | undefined;
  try {
    // People log in to the UI: a table with no user gets its first admin (Unleash's rule).
    const firstAdmin = await ensureFirstAdmin(runtime.services.users, {
      username: runtime.config.defaultAdminUsername, password: runtime.config.defaultAdminPassword,
    });
    const ui = createUiSite(installedUi(), { baseUriPath: runtime.config.baseUriPath });
    server = await startHttpServer(runtime.handlers, {
      port, apiMappingKey: runtime.apiMappingKey, throttling: runtime.throttling, concurrency: runtime.concurrency, ui,
      accessLog: process.env.ACCESS_LOG === '1',
    });
    const functionUrl = frontDoor === 'functionUrl'
      ? await startFunctionUrlServer(runtime.handlers.client, { port: functionUrlPort, concurrency: runtime.concurrency })
      : undefined;
    return { runtime, server, functionUrl, ui, firstAdmin };
  } catch (error) {
    await server?.close();
    await runtime.stop();
    throw error;
  }
}

// A failed start says what is wrong in one line and exits non-zero, without a stack trace.
const { runtime, server, functionUrl, ui, firstAdmin } = await start().catch((error: unknown) => {
  console.error(`serverless-toggles could not start: ${describeStartupFailure(error, { port })}`);
  process.exit(1);
});

// Stop handling is in place before the banner: whoever reads it may stop the server at once.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  await server.close();
  await functionUrl?.close();
  await runtime.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// `npm start` runs this under `sh -c`, which does not pass on the SIGTERM npm forwards to it:
// killing npm orphaned this process and its engine. Whoever started it going away (npm, a
// shell, a test runner) is therefore a stop signal too; process.ppid is read afresh each time
// and compared with the parent read when this process began (at the top of this file).
setInterval(() => {
  if (process.ppid === parent) return;
  // Its output may have gone with it: a write to a pipe nobody reads must not end the stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  void shutdown('parent process exited');
}, 1_000).unref();

// One write, so whoever reads the output (people, tests) never sees half of it.
console.log(
  [
    `serverless-toggles is listening on ${server.url}`,
    `  data: ${inMemory ? 'in memory (lost on exit)' : dataDir}`,
    `  dynamodb: ${runtime.config.dynamodbEndpoint}, table ${runtime.config.tableName}`,
    `  admin UI: ${ui.installed ? `${server.url}${runtime.apiMappingKey ? `/${runtime.apiMappingKey}` : ''}/ (${ui.status})` : ui.status}`,
    ...(functionUrl ? [`  SDK function URL (LOCAL_FRONT_DOOR=functionUrl): ${functionUrl.url}/ (SDKs use ${functionUrl.url}/api)`] : []),
    ...(runtime.apiMappingKey ? [`  API mapping key: ${runtime.apiMappingKey} (the API is at ${server.url}/${runtime.apiMappingKey}/api)`] : []),
    ...(runtime.generatedAdminToken
      ? [
          `  admin token: ${runtime.generatedAdminToken}`,
          `  try: curl -H "Authorization: ${runtime.generatedAdminToken}" ${server.url}${runtime.apiMappingKey ? `/${runtime.apiMappingKey}` : ''}/api/admin/strategies`,
        ]
      : ['  admin tokens: from INIT_ADMIN_API_TOKENS']),
    ...firstAdminLines(firstAdmin),
  ].join('\n'),
);

/** The first admin's password is shown once, when it was generated; it is stored only as a hash. */
function firstAdminLines(outcome: FirstAdminOutcome): string[] {
  const username = runtime.config.defaultAdminUsername;
  if (outcome.generatedPassword) {
    return [`  admin user: ${username}, password ${outcome.generatedPassword} (generated, shown only this once; log in at ${server.url}/)`];
  }
  return outcome.created ? [`  admin user: ${username}, password from UNLEASH_DEFAULT_ADMIN_PASSWORD`] : [];
}

