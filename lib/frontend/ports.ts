import type { ClientFeatureService } from '../client/features-service.js';
import type { ClientMetricsService } from '../client/metrics-service.js';
import type { FrontendOrigins } from './dynamo-origins.js';

/** What the Frontend API reads of the SDK API. */
export interface FrontendPorts {
  /** A token's payload at the current revision, from the SDK API's payload cache: the flags the answers are evaluated from. */
  payloads: Pick<ClientFeatureService, 'features'>;
  /** Where a frontend SDK's registration and evaluation counts go, as the SDK API records them. */
  usage: Pick<ClientMetricsService, 'recordMetrics' | 'register'>;
}

/** What the Frontend API's settings (served by the access function) write. */
export interface FrontendSettingsPorts {
  /** The origins browsers may call the Frontend API from: the process's one copy, which its CORS answers read too. */
  origins: Pick<FrontendOrigins, 'set'>;
}
