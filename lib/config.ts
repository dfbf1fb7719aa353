import * as z from 'zod';

/**
 * Everything the service reads from its environment, parsed once per process by its composition
 * (never at import time), so tests and the local server can build services with other settings.
 */
const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

export const configSchema = z.object({
  TABLE_NAME: z.string().min(3),
  /** Set for DynamoDB Local; absent in the cloud, where the SDK finds the regional endpoint. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  /** With DYNAMODB_ENDPOINT: the access key id, which picks DynamoDB Local's database (letters, digits). */
  DYNAMODB_ACCESS_KEY_ID: z.string().regex(/^[A-Za-z0-9]+$/, { error: 'letters and digits only' }).optional(),
  AWS_REGION: z.string().default('eu-west-1'),
  UNLEASH_URL: z.url().default('http://localhost:4242'),
  /**
   * Where the admin UI is served when that is not UNLEASH_URL (the stack sets the CloudFront
   * URL when UNLEASH_URL names another address): changes carried by a session cookie may come
   * from its pages too.
   */
  ADMIN_UI_URL: z.url().optional(),
  /**
   * Unleash's BASE_URI_PATH: the path the service's public URLs start with, which it writes into
   * what it tells clients (ui-config's baseUriPath, the login hint of a 401, the docs page's
   * links): `/toggles` when a custom domain maps the API under the key `toggles`. It never
   * changes routing: API Gateway matches the route below the key and the functions dispatch on
   * its route key (lib/http/router.ts). The local server's API_MAPPING_KEY, which plays such a
   * domain, sets it to the key unless it is given.
   */
  BASE_URI_PATH: z
    .string()
    .default('')
    .transform((path) => path.replace(/\/+$/, '')),
  INIT_ADMIN_API_TOKENS: commaList,
  INIT_CLIENT_API_TOKENS: commaList,
  INIT_FRONTEND_API_TOKENS: commaList,
  /**
   * Unleash's names: the first admin user, made on a table with no user. Without a password one
   * is generated once and shown once (npm start; in the cloud it is kept in Secrets Manager).
   */
  UNLEASH_DEFAULT_ADMIN_USERNAME: z.string().trim().min(1).max(255).default('admin'),
  UNLEASH_DEFAULT_ADMIN_PASSWORD: z.string().min(1).max(128).optional(),
  /** Origins browsers may call the Frontend API from, until set through the admin API (`*` when empty). */
  UNLEASH_FRONTEND_API_ORIGINS: commaList,
  /** How long the SDK path trusts the revision it read, in ms; 0 reads it on every poll (ADR 9). */
  REVISION_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
  /** How long a process trusts a looked-up API token, in ms; 0 looks it up on every request (ADR 9). */
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Key material for secrets stored encrypted (the OIDC client secret); at least 32 characters. */
  SECRET_KEY: z.string().min(32, { error: 'must be at least 32 characters of random text' }).optional(),
  /** In the cloud: the Secrets Manager secret holding that key material, read at run time. */
  SECRET_KEY_ARN: z.string().min(1).optional(),
  /**
   * The admin UI distribution's origin secret (lib/http/client-address.ts): a request carrying it
   * is counted by the viewer's address the distribution sends. Unset locally: the connection's.
   */
  CLOUDFRONT_ORIGIN_SECRET: z.string().min(32, { error: 'must be at least 32 characters of random text' }).optional(),
  /** In the cloud: the Secrets Manager secret holding it, read at run time by the functions that count logins. */
  CLOUDFRONT_ORIGIN_SECRET_ARN: z.string().min(1).optional(),
  /** In the cloud: the SQS queue SDK metrics reports go to (ADR 15); unset, reports are stored in the request. */
  METRICS_QUEUE_URL: z.url().optional(),
  /** In the cloud, for the metrics stages: the queue of summed metrics (ADR 15). */
  METRICS_SUMS_QUEUE_URL: z.url().optional(),
  /** In the cloud, for the integrations' stream stage: the queue of deliveries (lib/integrations/delivery.ts). */
  INTEGRATIONS_QUEUE_URL: z.url().optional(),
  /** In the cloud, for the integrations' delivery stage: the EventBridge bus the Amazon EventBridge integration puts events on. */
  EVENT_BUS_NAME: z.string().min(1).max(256).optional(),
  /** Unleash's setting: integrations may be configured with URLs on loopback and private networks. */
  UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: z.enum(['true', 'false', '1', '0', '']).optional().transform((value) => value === 'true' || value === '1'),
});

export type AppConfig = {
  tableName: string;
  dynamodbEndpoint: string | undefined;
  dynamodbAccessKeyId: string | undefined;
  region: string;
  unleashUrl: string;
  adminUiUrl: string | undefined;
  baseUriPath: string;
  initAdminApiTokens: string[];
  initClientApiTokens: string[];
  initFrontendApiTokens: string[];
  frontendApiOrigins: string[];
  defaultAdminUsername: string;
  defaultAdminPassword: string | undefined;
  revisionCheckIntervalMs: number;
  tokenCacheTtlMs: number;
  secretKey: string | undefined;
  secretKeyArn: string | undefined;
  cloudfrontOriginSecret: string | undefined;
  cloudfrontOriginSecretArn: string | undefined;
  metricsQueueUrl: string | undefined;
  metricsSumsQueueUrl: string | undefined;
  integrationsQueueUrl: string | undefined;
  eventBusName: string | undefined;
  integrationsAllowPrivateUrls: boolean;
};

export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const c = parsed.data;
  return {
    tableName: c.TABLE_NAME,
    dynamodbEndpoint: c.DYNAMODB_ENDPOINT,
    dynamodbAccessKeyId: c.DYNAMODB_ACCESS_KEY_ID,
    region: c.AWS_REGION,
    unleashUrl: c.UNLEASH_URL,
    adminUiUrl: c.ADMIN_UI_URL,
    baseUriPath: c.BASE_URI_PATH,
    initAdminApiTokens: c.INIT_ADMIN_API_TOKENS,
    initClientApiTokens: c.INIT_CLIENT_API_TOKENS,
    initFrontendApiTokens: c.INIT_FRONTEND_API_TOKENS,
    frontendApiOrigins: c.UNLEASH_FRONTEND_API_ORIGINS,
    defaultAdminUsername: c.UNLEASH_DEFAULT_ADMIN_USERNAME,
    defaultAdminPassword: c.UNLEASH_DEFAULT_ADMIN_PASSWORD,
    revisionCheckIntervalMs: c.REVISION_CHECK_INTERVAL_MS,
    tokenCacheTtlMs: c.TOKEN_CACHE_TTL_MS,
    secretKey: c.SECRET_KEY,
    secretKeyArn: c.SECRET_KEY_ARN,
    cloudfrontOriginSecret: c.CLOUDFRONT_ORIGIN_SECRET,
    cloudfrontOriginSecretArn: c.CLOUDFRONT_ORIGIN_SECRET_ARN,
    metricsQueueUrl: c.METRICS_QUEUE_URL,
    metricsSumsQueueUrl: c.METRICS_SUMS_QUEUE_URL,
    integrationsQueueUrl: c.INTEGRATIONS_QUEUE_URL,
    eventBusName: c.EVENT_BUS_NAME,
    integrationsAllowPrivateUrls: c.UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION,
  };
}

/**
 * Where browsers reach the service: ADMIN_UI_URL when set (the UI beside a custom API domain),
 * else UNLEASH_URL with BASE_URI_PATH's path when UNLEASH_URL has none.
 */
export function publicUrlOf(config: { unleashUrl: string; adminUiUrl?: string | undefined; baseUriPath: string }): string {
  if (config.adminUiUrl) return config.adminUiUrl;
  const url = new URL(config.unleashUrl);
  return url.pathname === '/' && config.baseUriPath ? `${url.origin}${config.baseUriPath}` : config.unleashUrl;
}
