import { loadConfig } from '../../lib/config.js';
import { log } from '../../lib/log.js';
import { createClientServices, type ClientServices } from '../../lib/composition/client-services.js';
import { createComposition } from '../../lib/composition/composition.js';
import type { StoreOutcome } from '../../lib/client/features-service.js';

let services: ClientServices | undefined;

/**
 * The stored SDK snapshot's writer (ADR 20), run by an EventBridge schedule (infra/constructs/
 * sdk-snapshot.ts). It takes no input. A warm writer keeps its snapshot and follows the change
 * log, as an SDK container does, so a rewrite reads only what changed since the last one.
 */
export async function handler(): Promise<{ outcome: StoreOutcome }> {
  services ??= createClientServices(createComposition(loadConfig(process.env)));
  const outcome = await services.clientFeatures.storeSnapshot();
  log.info('stored SDK snapshot', { outcome });
  return { outcome };
}
