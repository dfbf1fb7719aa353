import { loadConfig } from '../../lib/config.js';
import { log } from '../../lib/log.js';
import { createComposition, type Composition } from '../../lib/composition/composition.js';
import { insights } from '../../lib/composition/slices/insights.js';

let composition: Composition | undefined;

/**
 * The daily insights snapshot, run by an EventBridge schedule (see infra/). It takes no input:
 * the figures are read from the table at the time it runs.
 */
export async function handler(): Promise<{ date: string }> {
  composition ??= createComposition(loadConfig(process.env));
  const snapshot = await composition.once(insights).insights.snapshot();
  log.info('insights snapshot taken', { date: snapshot.date });
  return { date: snapshot.date };
}
