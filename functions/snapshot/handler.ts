import { loadConfig } from '../../lib/config.js';
import { log } from '../../lib/log.js';
import { createServices, type Services } from '../../lib/composition/services.js';
import { createComposition } from '../../lib/composition/composition.js';

let services: Services | undefined;

/**
 * The daily insights snapshot, run by an EventBridge schedule (see infra/). It takes no input:
 * the figures are read from the table at the time it runs.
 */
export async function handler(): Promise<{ date: string }> {
  services ??= createServices(createComposition(loadConfig(process.env)));
  const snapshot = await services.insights.snapshot();
  log.info('insights snapshot taken', { date: snapshot.date });
  return { date: snapshot.date };
}
