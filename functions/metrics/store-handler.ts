import type { Context, SQSEvent } from 'aws-lambda';
import { createComposition } from '../../lib/composition/composition.js';
import { queuedMetricsStages } from '../../lib/composition/metrics-services.js';
import { loadConfig } from '../../lib/config.js';
import { WRITE_BUDGET_MS } from '../../lib/time-budget.js';

let stages: ReturnType<typeof queuedMetricsStages> | undefined;

/**
 * The metrics store stage (ADR 15): the `sums` queue's event source mapping hands it a batch of
 * sums; it writes them and sends back what it could not write before its deadline (a write starts
 * only while WRITE_BUDGET_MS of the function's time is left, so none is cut off by the timeout).
 */
export const handler = async (event: SQSEvent, context: Context): Promise<void> => {
  stages ??= createComposition(loadConfig(process.env)).once(queuedMetricsStages);
  await stages.store(event.Records.map((record) => record.body), () => context.getRemainingTimeInMillis() > WRITE_BUDGET_MS);
};
