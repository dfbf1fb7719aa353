import type { ClientMetricsService } from '../client/metrics-service.js';
import type { TokenAuthenticator } from '../tokens/authenticator.js';

/** What Unleash Edge's upstream endpoints read of other resources. */
export interface EdgePorts {
  /** The token check every request makes (cached per process, revocations within the revision interval). */
  tokens: Pick<TokenAuthenticator, 'authenticate'>;
  /** The SDK API's usage rules: registrations and counts go through the same service as an SDK's own reports. */
  usage: Pick<ClientMetricsService, 'register' | 'recordBulkCounts'>;
}
