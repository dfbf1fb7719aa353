/**
 * A cold SDK container's first polls at N flags, alone (issue 29): seeds N flags fast, lets the
 * warm runtime's scheduled writer store the SDK snapshot (its CPU, write units, pages and bytes),
 * then measures a new container's first polls from it (CPU, read units), and that container's
 * first poll after one change. Quicker than the whole bench when only the cold start matters:
 *
 *   npx tsx local/bench/cold-start.ts --flags 50000
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startHttpServer } from '../http-server.js';
import { AWS_LIKE_BY_DEFAULT } from '../aws-like-dynamodb/engine.js';
import { startLocalRuntime } from '../runtime.js';
import { definition as clientFunction } from '../../functions/client/handler.js';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import { createComposition } from '../../lib/composition/composition.js';
import { coldPolls, pollCost, storedSnapshotStart, type PollCost } from './cost.js';
import { startBenchDynamo } from './dynamo.js';
import { seedFlagsFast } from './fast-seed.js';
import { adminClient, flagName } from './seed.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values } = parseArgs({ args: process.argv.slice(2), strict: true, options: { flags: { type: 'string', default: '10000' } } });
const flags = Number(values.flags);
if (!Number.isInteger(flags) || flags < 10) throw new Error(`--flags must be a whole number ≥ 10, not ${values.flags}`);

const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'toggles-cold-'));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
const dynamo = await startBenchDynamo(env, AWS_LIKE_BY_DEFAULT.bench);
const runtime = await startLocalRuntime({
  inMemory: true, dataDir,
  env: {
    ...env, INIT_CLIENT_API_TOKENS: clientToken, DYNAMODB_ENDPOINT: dynamo.service.endpoint, AWS_REGION: dynamo.service.region,
    DYNAMODB_ACCESS_KEY_ID: dynamo.service.accessKeyId, REVISION_CHECK_INTERVAL_MS: '0',
  },
}).catch(async (error: unknown) => {
  await dynamo.stop();
  throw error;
});
const server = await startHttpServer(runtime.handlers, { port: 0 });
const line = (what: string, cost: PollCost) =>
  console.log(`- ${what}: ${cost.cpuMs.toFixed(0)} ms CPU, ${cost.wallMs.toFixed(0)} ms wall, ${cost.readUnits ?? '?'} read units, ${cost.bytes.toLocaleString('en')} bytes (status ${cost.status})`);
try {
  const admin = adminClient(server.url, runtime.generatedAdminToken as string);
  console.error(`seeding ${flags} flags`);
  await seedFlagsFast(admin, dynamo.direct, runtime.config.tableName, flags);
  console.log(`\n## A cold SDK container at ${flags.toLocaleString('en')} flags\n`);
  line('warm runtime, first poll (reads every feature)', (await coldPolls(runtime.handlers.client, dynamo, clientToken)).at(-1) as PollCost);
  const stored = await storedSnapshotStart(runtime.services, dynamo, clientToken);
  const { writer } = stored;
  console.log(`- the writer (${writer.outcome}): ${writer.cpuMs.toFixed(0)} ms CPU, ${writer.wallMs.toFixed(0)} ms wall, ${writer.writeUnits ?? '?'} write units, ${writer.pages} pages, ${writer.bytes.toLocaleString('en')} bytes`);
  for (const [attempt, poll] of stored.polls.entries()) line(`cold container from the stored snapshot, poll ${attempt + 1}`, poll);
  // A second new container follows one change made after the snapshot was stored.
  await admin('POST', `/api/admin/projects/default/features/${flagName(7)}/environments/development/off`);
  const fresh = createComposition(runtime.config);
  try {
    const handler = groupHandlerOf(clientFunction, fresh);
    line('cold container, the snapshot one change behind, poll 1', await pollCost(handler, dynamo, clientToken));
    await admin('POST', `/api/admin/projects/default/features/${flagName(7)}/environments/development/on`);
    line('the same container after one more change, poll 2', await pollCost(handler, dynamo, clientToken));
  } finally {
    fresh.store.db.destroy();
  }
} finally {
  await server.close();
  await runtime.stop();
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
