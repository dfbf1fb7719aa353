/**
 * Resource limits, in one place: the UI configuration reports them and validation enforces
 * them. The values are Unleash's defaults.
 */
export const RESOURCE_LIMITS = {
  segmentValues: 1000,
  strategySegments: 5,
  actionSetActions: 10,
  actionSetsPerProject: 5,
  actionSetFilters: 5,
  actionSetFilterValues: 25,
  signalEndpoints: 5,
  signalTokensPerEndpoint: 5,
} as const;

/**
 * Request body limits in bytes, as Unleash sets them: about 100 KB, 500 KB for the batch
 * endpoints (import, export, SDK metrics). A route row names its own as `maxBodyBytes`.
 */
export const BODY_LIMITS = { default: 100 * 1024, batch: 500 * 1024 } as const;

/**
 * What one SDK report may hold, so its work is bounded whatever it sends (README "Limits").
 * SDKs report only the toggles evaluated during one metrics interval (60 s by default), so an
 * application's report is bounded by the flags it uses, and only features in the token's
 * scope are written: 1,000 is the largest instance we measure (docs/performance.md). A report
 * at the cap writes at most 2,000 small items (a counter and a last-seen item per feature), a
 * second or two on DynamoDB (1,000 writes a second per partition) and 3-9 s on a busy
 * machine's DynamoDB Local; its writes stop at the report's window either way
 * (lib/client/metrics-service.ts). A registration names the strategy types its SDK knows,
 * 6 built into Unleash; 100 is generous.
 */
export const SDK_REPORT_LIMITS = { toggles: 1000, strategies: 100 } as const;

/**
 * What SDK registrations may hold (lib/client/dynamo-application-store.ts). A registration's
 * appName is chosen by whoever holds the token, and frontend tokens ship in web pages: each
 * token scope (environment and projects) keeps at most `perScope` applications, a new name past
 * it is not stored, and a registration not renewed for `expiryDays` (Unleash removes
 * applications unseen for 30 days) is no longer listed and is removed by DynamoDB's TTL; its
 * place in the scope is free from the next UTC day.
 */
export const APPLICATION_REGISTRATIONS = { perScope: 1_000, expiryDays: 30 } as const;

/**
 * The deprecated full lists (`GET /api/admin/features`, E15, and the state export) read every
 * feature before answering. Past this many active features that read alone takes seconds of the
 * function's 10 (one partition serves 3,000 read units a second; 20,000 features are ~6,000
 * strongly consistent units), so they refuse at once, counted from the projects' feature counts,
 * and name the paginated search instead of failing on time.
 */
export const FULL_LIST_MAX_FEATURES = 20_000;

/** The paginated alternative the full lists name when they refuse. */
export const PAGED_FEATURES = '/api/admin/search/features?offset=0&limit=100';
