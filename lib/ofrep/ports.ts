import type { ClientFeatureService } from '../client/features-service.js';
import type { ClientMetricsService } from '../client/metrics-service.js';

/** What OFREP reads of the SDK API, as the Frontend API does. */
export interface OfrepPorts {
  /** A token's payload at the current revision, from the SDK API's payload cache: the flags evaluated. */
  payloads: Pick<ClientFeatureService, 'features'>;
  /** Where the evaluation counts go: the SDK API's metrics path (counters, last-seen). */
  usage: Pick<ClientMetricsService, 'recordMetrics'>;
}
