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
