import type { RouteSpec } from '../lib/http/route.js';

/**
 * API Gateway throttling, sized from the load each route carries. No CDK import here: the
 * stack applies these limits and the local runtime can enforce the same ones.
 *
 * An HTTP API stage's `DefaultRouteSettings` are not a budget for the stage: every route
 * gets its own token bucket with those limits, and a `RouteSettings` entry replaces them for
 * the route it names (AWS, "Throttling requests to your HTTP API": route-level throttling).
 * Above all routes of all APIs sits the account's quota per Region: 10,000 requests/s with
 * a burst of 5,000 by default, 2,500/s and 1,250 in some newer Regions (AWS, "Amazon API
 * Gateway quotas"; raised through Service Quotas, L-8A5B8E43). A request over any limit is
 * answered 429 `{"message":"Too Many Requests"}` by API Gateway itself.
 */

export interface ThrottleLimits {
  /** Steady-state requests per second (token refill rate). */
  rateLimit: number;
  /** Bucket size: how many requests may arrive at once. */
  burstLimit: number;
}

/** The three kinds of route, by who calls them and how often. */
export interface ApiThrottling {
  /** `GET /api/client/features`: every SDK instance, every refresh interval. */
  sdkPoll: ThrottleLimits;
  /** `POST /api/client/metrics` (every metrics interval) and `POST /api/client/register` (at start). */
  sdkReport: ThrottleLimits;
  /**
   * `GET` and `POST /api/frontend`: every page view of every end user of a web or mobile app;
   * its preflights and reports get half of it.
   */
  frontend: ThrottleLimits;
  /** Every other route: people, scripts and tools such as Terraform. The stage's default. */
  admin: ThrottleLimits;
}

/**
 * The defaults are sized for this many SDK instances (application processes with an SDK),
 * at the official SDKs' default intervals: features every 15 s, metrics every 60 s.
 */
export const SIZED_FOR_SDK_INSTANCES = 15_000;
export const SDK_REFRESH_INTERVAL_SECONDS = 15;
export const SDK_METRICS_INTERVAL_SECONDS = 60;
/** Metrics are sent a quarter as often as features are fetched: the report routes get a quarter of the poll limits. */
const REPORT_SHARE = SDK_REFRESH_INTERVAL_SECONDS / SDK_METRICS_INTERVAL_SECONDS;

/** API Gateway's default account quota per Region, shared by every API of the account. */
export const ACCOUNT_DEFAULT_QUOTA: ThrottleLimits = { rateLimit: 10_000, burstLimit: 5_000 };

const SDK_POLL_RATE = Math.ceil(SIZED_FOR_SDK_INSTANCES / SDK_REFRESH_INTERVAL_SECONDS);

export const DEFAULT_THROTTLING: ApiThrottling = {
  // 1,000/s: 15,000 instances polling every 15 s; a burst of two seconds' worth absorbs a fleet restart.
  sdkPoll: { rateLimit: SDK_POLL_RATE, burstLimit: 2 * SDK_POLL_RATE },
  // 250/s each: 15,000 instances reporting every 60 s.
  sdkReport: { rateLimit: Math.ceil(SDK_POLL_RATE * REPORT_SHARE), burstLimit: Math.ceil(2 * SDK_POLL_RATE * REPORT_SHARE) },
  // 500/s: 1.3 billion page views a month; raise it with -c frontendRateLimit.
  frontend: { rateLimit: 500, burstLimit: 1_000 },
  // Per route: the admin UI's page loads call many routes once each. 250 routes × 20/s plus the
  // SDK, frontend and OFREP routes (5,000/s) stays under the default account quota.
  admin: { rateLimit: 20, burstLimit: 40 },
};

/** The routes that carry every SDK instance's traffic, by route key (`METHOD /path`). */
export const SDK_POLL_ROUTE = 'GET /api/client/features';
/** SDKs in delta mode poll this instead of the features route, as often: the same limits. */
export const SDK_DELTA_ROUTE = 'GET /api/client/delta';
export const SDK_REPORT_ROUTES = ['POST /api/client/metrics', 'POST /api/client/register'] as const;
export const FRONTEND_ROUTES = ['GET /api/frontend', 'POST /api/frontend'] as const;
/** A browser asks once per session and keeps the answer (Access-Control-Max-Age); SDKs report once a minute. */
export const FRONTEND_SIDE_ROUTES = [
  'OPTIONS /api/frontend', 'OPTIONS /api/frontend/{proxy+}', 'POST /api/frontend/client/metrics', 'POST /api/frontend/client/register',
] as const;

/**
 * OpenFeature's OFREP evaluations: a server provider asks once per evaluation, a web provider once
 * per page and poll. Half the Frontend API's limits each (`-c frontendRateLimit` raises both),
 * so every route together stays within the default account quota; their preflights keep the
 * stage default, as a browser asks once for hours.
 */
export const OFREP_ROUTES = ['POST /ofrep/v1/evaluate/flags/{featureName}', 'POST /ofrep/v1/evaluate/flags'] as const;

export const routeKeyOf = (row: Pick<RouteSpec, 'method' | 'path'>): string => `${row.method} ${row.path}`;

/** The limits API Gateway applies to one route. */
export function throttleOf(routeKey: string, throttling: ApiThrottling): ThrottleLimits {
  if (routeKey === SDK_POLL_ROUTE || routeKey === SDK_DELTA_ROUTE) return throttling.sdkPoll;
  if ((SDK_REPORT_ROUTES as readonly string[]).includes(routeKey)) return throttling.sdkReport;
  if ((FRONTEND_ROUTES as readonly string[]).includes(routeKey)) return throttling.frontend;
  if ((FRONTEND_SIDE_ROUTES as readonly string[]).includes(routeKey) || (OFREP_ROUTES as readonly string[]).includes(routeKey)) return halfOf(throttling.frontend);
  return throttling.admin;
}

/** The routes whose limits differ from the stage default, as `RouteSettings` names them. */
export function routeOverrides(throttling: ApiThrottling): Record<string, ThrottleLimits> {
  return Object.fromEntries([
    [SDK_POLL_ROUTE, throttling.sdkPoll],
    [SDK_DELTA_ROUTE, throttling.sdkPoll],
    ...SDK_REPORT_ROUTES.map((key) => [key, throttling.sdkReport] as const),
    ...FRONTEND_ROUTES.map((key) => [key, throttling.frontend] as const),
    ...FRONTEND_SIDE_ROUTES.map((key) => [key, halfOf(throttling.frontend)] as const),
    ...OFREP_ROUTES.map((key) => [key, halfOf(throttling.frontend)] as const),
  ]);
}

const halfOf = ({ rateLimit, burstLimit }: ThrottleLimits): ThrottleLimits => ({
  rateLimit: Math.ceil(rateLimit / 2), burstLimit: Math.ceil(burstLimit / 2),
});

/** Requests per second all routes together may take at their steady rates. */
export function totalRate(routeKeys: readonly string[], throttling: ApiThrottling): number {
  return routeKeys.reduce((sum, key) => sum + throttleOf(key, throttling).rateLimit, 0);
}

/**
 * Context keys (`cdk deploy -c sdkRateLimit=2000`). The SDK poll limits also set the report
 * routes' (a quarter of them), as both scale with the number of SDK instances.
 */
export const THROTTLE_CONTEXT_KEYS = [
  'sdkRateLimit', 'sdkBurstLimit', 'frontendRateLimit', 'frontendBurstLimit', 'adminRateLimit', 'adminBurstLimit',
] as const;

/** Reads the limits from CDK context; anything not given keeps its default. Throws on a value AWS would refuse. */
export function throttlingFromContext(context: (key: string) => unknown): ApiThrottling {
  const read = (key: (typeof THROTTLE_CONTEXT_KEYS)[number], fallback: number, integer: boolean): number => {
    const raw = context(key);
    if (raw === undefined || raw === null || raw === '') return fallback;
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : Number.NaN;
    if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
      throw new Error(`Context ${key} must be a positive ${integer ? 'whole ' : ''}number of requests${integer ? '' : ' per second'}, got ${JSON.stringify(raw)}`);
    }
    return value;
  };
  const sdkRate = read('sdkRateLimit', DEFAULT_THROTTLING.sdkPoll.rateLimit, false);
  const sdkBurst = read('sdkBurstLimit', context('sdkRateLimit') === undefined ? DEFAULT_THROTTLING.sdkPoll.burstLimit : Math.ceil(2 * sdkRate), true);
  const frontendRate = read('frontendRateLimit', DEFAULT_THROTTLING.frontend.rateLimit, false);
  const frontendBurst = read(
    'frontendBurstLimit', context('frontendRateLimit') === undefined ? DEFAULT_THROTTLING.frontend.burstLimit : Math.ceil(2 * frontendRate), true,
  );
  const adminRate = read('adminRateLimit', DEFAULT_THROTTLING.admin.rateLimit, false);
  const adminBurst = read('adminBurstLimit', context('adminRateLimit') === undefined ? DEFAULT_THROTTLING.admin.burstLimit : Math.ceil(2 * adminRate), true);
  return {
    sdkPoll: { rateLimit: sdkRate, burstLimit: sdkBurst },
    sdkReport: { rateLimit: Math.ceil(sdkRate * REPORT_SHARE), burstLimit: Math.ceil(sdkBurst * REPORT_SHARE) },
    frontend: { rateLimit: frontendRate, burstLimit: frontendBurst },
    admin: { rateLimit: adminRate, burstLimit: adminBurst },
  };
}

/**
 * What to tell the person deploying: limits API Gateway would not honour past the account's
 * default quota. Warnings, not errors: an account may have a raised quota.
 */
export function quotaWarnings(routeKeys: readonly string[], throttling: ApiThrottling): string[] {
  const warnings: string[] = [];
  for (const [name, limits] of Object.entries(throttling) as Array<[keyof ApiThrottling, ThrottleLimits]>) {
    if (limits.rateLimit > ACCOUNT_DEFAULT_QUOTA.rateLimit || limits.burstLimit > ACCOUNT_DEFAULT_QUOTA.burstLimit) {
      warnings.push(
        `The ${name} route limits (${limits.rateLimit}/s, burst ${limits.burstLimit}) exceed API Gateway's default account quota ` +
          `(${ACCOUNT_DEFAULT_QUOTA.rateLimit}/s, burst ${ACCOUNT_DEFAULT_QUOTA.burstLimit}); a route is never allowed more than the account. ` +
          'Raise the quota (Service Quotas, API Gateway L-8A5B8E43) first.',
      );
    }
  }
  const total = totalRate(routeKeys, throttling);
  if (total > ACCOUNT_DEFAULT_QUOTA.rateLimit) {
    warnings.push(
      `The route limits add up to ${total}/s, above API Gateway's default account quota of ${ACCOUNT_DEFAULT_QUOTA.rateLimit}/s per Region, ` +
        'which every API of the account shares: under load the account quota, not the route limits, decides who gets 429s.',
    );
  }
  return warnings;
}
