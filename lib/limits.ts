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
