import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GROUPS, type Group } from '../lib/http/route.js';
import { loadConfig, type AppConfig } from '../lib/config.js';
import type { LambdaHandler } from '../lib/composition/function-handler.js';
import { createServices, type Services } from './app-services.js';
import { createComposition } from '../lib/composition/composition.js';
import { trustEventCountsOf } from '../lib/events/dynamo-store.js';
import { prepareLocalTable } from '../lib/store/create-table.js';
import { applyBootstrapTokens } from '../lib/tokens/bootstrap.js';
import { formatSecret } from '../lib/tokens/model.js';
import { everyGroupHandler } from '../functions/registry.js';
import { AWS_LIKE_BY_DEFAULT } from './aws-like-dynamodb/engine.js';
import { awsLikeInFront } from './aws-like-dynamodb/in-front.js';
import { startDynamoDbLocal, type LocalEngine } from './dynamodb-local.js';
import { parseApiMappingKey } from './match-route.js';
import { localConcurrency, localThrottling } from './aws-limits.js';
import type { ApiThrottling } from '../infra/throttling.js';
import { log } from '../lib/log.js';
import { REWRITE_POLICY } from '../lib/client/stored-snapshot.js';
import { metricsLifecycle, metricsStages, unknownFlagRecorder } from '../lib/composition/metrics-services.js';
import { localMetricsQueues, type LocalMetricsQueues } from './metrics-queues.js';
import { startLocalIntegrations, type LocalIntegrations } from './integrations-pipeline.js';

export interface LocalRuntimeOptions {
  /** Keep data in memory instead of under `dataDir`. */
  inMemory: boolean;
  /** Where the engine keeps its database and the generated admin token (`.data/`). */
  dataDir: string;
  env: Record<string, string | undefined>;
  /** Whether the AWS-like engine fronts the embedded one when AWS_LIKE_DYNAMODB is unset; default off (npm start). */
  awsLikeDefaultOn?: boolean;
}

export interface LocalRuntime {
  config: AppConfig;
  services: Services;
  handlers: Record<Group, LambdaHandler>;
  /** Set when no INIT_ADMIN_API_TOKENS was configured and this runtime made one. */
  generatedAdminToken: string | undefined;
  /**
   * API_MAPPING_KEY: the local server plays a custom domain that maps the API under this key
   * (infrastructure, read only by the local API Gateway; the functions never need it).
   */
  apiMappingKey: string | undefined;
  /**
   * LOCAL_THROTTLE=1: the local server throttles each route as the stack's API Gateway does
   * (infra/throttling.ts) and answers 429; unset, no throttling (local/aws-limits.ts).
   */
  throttling: ApiThrottling | undefined;
  /**
   * LOCAL_CONCURRENCY=<n>: each group's function runs at most n invocations at once and Lambda's
   * throttling (a 500) answers the rest; unset, no limit (local/aws-limits.ts).
   */
  concurrency: number | undefined;
  /** The SDK metrics queues (ADR 15): reports, then their sums. */
  metricsQueues: LocalMetricsQueues;
  /** Integrations delivered as in the cloud: change events as written, a deliveries queue, the bus recorded (local/integrations-pipeline.ts). */
  integrations: LocalIntegrations;
  stop(): Promise<void>;
}

export const DEFAULT_TABLE_NAME = 'serverless-toggles';

/**
 * Everything `npm start`, `npm run invoke` and the end-to-end tests share: the embedded engine
 * (or one named by DYNAMODB_ENDPOINT), the table from the shared definition, the first start's
 * data (project `default`, its environments …), bootstrap tokens, and every group's real
 * handler built on one set of services.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const apiMappingKey = parseApiMappingKey(options.env.API_MAPPING_KEY);
  const throttling = localThrottling(options.env);
  const concurrency = localConcurrency(options.env);
  const external = options.env.DYNAMODB_ENDPOINT;
  const engine: LocalEngine | undefined = external
    ? undefined
    : await awsLikeInFront(options.env, await startDynamoDbLocal({ dataDir: options.inMemory ? undefined : join(options.dataDir, 'dynamodb') }), {
      defaultOn: options.awsLikeDefaultOn ?? AWS_LIKE_BY_DEFAULT.start,
    });
  try {
    const config = loadConfig({
      TABLE_NAME: DEFAULT_TABLE_NAME,
      ...(options.env.SECRET_KEY || options.env.SECRET_KEY_ARN ? {} : { SECRET_KEY: localSecretKey(options) }),
      // Behind a mapping key the service's public base path is the key, unless told otherwise:
      // BASE_URI_PATH is what the service says its links start with (Unleash's setting).
      ...(apiMappingKey ? { BASE_URI_PATH: `/${apiMappingKey}` } : {}),
      ...options.env,
      // The embedded engine's database is named by its secret key and the region, both fixed here.
      AWS_REGION: engine?.region ?? options.env.AWS_REGION ?? 'local',
      DYNAMODB_ENDPOINT: engine?.endpoint ?? external,
      ...(engine ? { DYNAMODB_ACCESS_KEY_ID: engine.accessKeyId } : {}),
    });
    const connection = { region: config.region, endpoint: config.dynamodbEndpoint, accessKeyId: config.dynamodbAccessKeyId };
    const created = await prepareLocalTable(connection, config.tableName);
    // SDK metrics go through queues with SQS's rules and the same two stages as in the cloud (ADR 15).
    const metricsQueues = localMetricsQueues(options.env);
    const services = createServices(createComposition(config, { metricsQueue: metricsQueues.reports }));
    // A table this process just made on its own engine: every event in it is counted (ADR 26).
    if (created && engine) trustEventCountsOf(services.composition.store.db, config.tableName);
    const stages = metricsStages(services.metrics, metricsQueues.sums, services.composition.once(metricsLifecycle), services.composition.once(unknownFlagRecorder));
    metricsQueues.reports.consume(stages.sum);
    metricsQueues.sums.consume((bodies) => stages.store(bodies));
    const integrations = startLocalIntegrations(services.composition, { timers: true, ...localBackoff(options.env) });
    await services.firstStart.ensure();
    // A table from before ADR 17 (an older .data/): only this process writes it, nothing to settle.
    // Unfinished, readers of one project read every feature, as before: the start goes on.
    await services.projectCopies.make({ settleMs: 0 }).catch((error: unknown) =>
      log.warn('Project copies of the features (ADR 17) not finished; the next start continues', { error: String(error) }));
    const generatedAdminToken =
      config.initAdminApiTokens.length === 0 ? localAdminToken(options) : undefined;
    await applyBootstrapTokens(services.apiTokens, {
      admin: generatedAdminToken ? [generatedAdminToken] : config.initAdminApiTokens,
      client: config.initClientApiTokens,
      frontend: config.initFrontendApiTokens,
    });
    const handlers = everyGroupHandler(services.composition);
    const scheduled = scheduleTasks(services);
    return {
      config, services, handlers, generatedAdminToken, apiMappingKey, throttling, concurrency, metricsQueues, integrations,
      stop: async () => {
        await scheduled.stop();
        await integrations.stop();
        // What the queues accepted is stored before the engine goes away.
        await metricsQueues.reports.stop();
        await metricsQueues.sums.stop();
        await engine?.stop();
      },
    };
  } catch (error) {
    await engine?.stop();
    throw error;
  }
}

/** LOCAL_INTEGRATIONS_BACKOFF_MS: the first wait before a failed integration delivery is tried again (doubled each time); default 1,000 ms. */
function localBackoff(env: Record<string, string | undefined>): { backoffMs?: number } {
  const raw = env.LOCAL_INTEGRATIONS_BACKOFF_MS;
  if (raw === undefined || raw === '') return {};
  const backoffMs = Number(raw);
  if (!Number.isInteger(backoffMs) || backoffMs < 0) throw new Error(`LOCAL_INTEGRATIONS_BACKOFF_MS must be a whole number of ms ≥ 0, not ${raw}`);
  return { backoffMs };
}

/**
 * With no configured admin token, a persistent local store keeps one generated token across
 * restarts (in `.data/admin-token`, git-ignored); an in-memory store gets a fresh one.
 */
function localAdminToken(options: LocalRuntimeOptions): string {
  if (options.inMemory) return formatSecret(['*'], '*');
  const file = join(options.dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = formatSecret(['*'], '*');
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * With no configured SECRET_KEY, a persistent local store keeps one generated key across
 * restarts (in `.data/secret-key`, git-ignored), so secrets sealed with it stay readable; an
 * in-memory store gets a fresh one. See docs/adr/0006-access-administration.md.
 */
function localSecretKey(options: LocalRuntimeOptions): string {
  if (options.inMemory) return randomBytes(32).toString('base64url');
  const file = join(options.dataDir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64url');
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Locally there is no EventBridge: what the cloud runs on a schedule runs at start and then at
 * its interval, without keeping the process alive for it. The insights snapshot is daily; the
 * stored SDK snapshot's writer (ADR 20) looks every few minutes, as in the cloud.
 */
function scheduleTasks(services: Services): { stop(): Promise<void> } {
  const tasks = [
    schedule('insights snapshot', () => services.insights.snapshot(), DAY_MS),
    schedule('stored SDK snapshot', () => services.clientFeatures.storeSnapshot(), REWRITE_POLICY.checkEveryMinutes * 60_000),
  ];
  return { stop: async () => void (await Promise.all(tasks.map((task) => task.stop()))) };
}

function schedule(what: string, run: () => Promise<unknown>, intervalMs: number): { stop(): Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  const take = () => {
    // One run at a time: a slow one is not overtaken by the next.
    pending = pending.then(run).then(
      () => undefined,
      (error: unknown) => log.error(`${what} failed`, { error: String(error) }),
    );
  };
  take();
  const timer = setInterval(take, intervalMs);
  timer.unref();
  // A run still going when the runtime stops finishes first, before its engine goes away.
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
    },
  };
}
