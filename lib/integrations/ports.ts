import type { Sealer } from './store.js';

/** What integrations read of other parts: the box that seals their sensitive parameters. */
export interface IntegrationPorts {
  sealer: Sealer;
}
