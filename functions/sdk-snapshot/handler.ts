import { loadConfig } from '../../lib/config.js';
import { log } from '../../lib/log.js';
import type { FeatureSnapshots, StoreOutcome } from '../../lib/client/feature-snapshots.js';
import { createComposition } from '../../lib/composition/composition.js';
import { featureSnapshots } from '../../lib/composition/feature-snapshots.js';

let snapshots: FeatureSnapshots | undefined;

/**
 * The stored SDK snapshot's writer (ADR 20), run by an EventBridge schedule (infra/constructs/
 * sdk-snapshot.ts). It takes no input. A warm writer keeps its snapshot and follows the change
 * log, as an SDK container does, so a rewrite reads only what changed since the last one.
 */
export async function handler(): Promise<{ outcome: StoreOutcome }> {
  snapshots ??= createComposition(loadConfig(process.env)).once(featureSnapshots);
  const outcome = await snapshots.store();
  log.info('stored SDK snapshot', { outcome });
  return { outcome };
}
