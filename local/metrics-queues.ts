import { LocalMetricsQueue } from './metrics-queue.js';

/** The local runtime's two metrics queues, configured as the stack's (infra/constructs/metrics-pipeline.ts). */
export interface LocalMetricsQueues {
  reports: LocalMetricsQueue;
  sums: LocalMetricsQueue;
}

/**
 * LOCAL_METRICS_WINDOW_MS: how long each queue gathers a batch under `npm start`, default 1,000 ms.
 * The cloud's windows (30 s, then 300 s) would keep a report out of the admin UI for minutes; the
 * batch limits and redelivery are the cloud's either way. 0 delivers only when drained (tests).
 */
export function localMetricsQueues(env: Record<string, string | undefined>): LocalMetricsQueues {
  const raw = env.LOCAL_METRICS_WINDOW_MS;
  const windowMs = raw === undefined || raw === '' ? 1000 : Number(raw);
  if (!Number.isInteger(windowMs) || windowMs < 0) throw new Error(`LOCAL_METRICS_WINDOW_MS must be a whole number of ms ≥ 0, not ${raw}`);
  return { reports: new LocalMetricsQueue('metrics-reports', { windowMs }), sums: new LocalMetricsQueue('metrics-sums', { windowMs }) };
}
