/**
 * The load generator of `npm run bench`, in a child process of its own: on the same event
 * loop as the server it would steal the server's time. The parent sends one job per message
 * and gets autocannon's figures back.
 */
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Seconds of warm-up, not measured. */
  warmup: number;
  /** Seconds measured. */
  duration: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  total: number;
  byStatusClass: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  errors: number;
  /** The load generator's own CPU time over the measured run (user + system), ms. */
  loaderCpuMs: number;
  /** The measured run's wall time, ms. */
  wallMs: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const options = { url: job.url, headers: job.headers, connections: job.connections };
  if (job.warmup > 0) await autocannon({ ...options, duration: job.warmup });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({ ...options, duration: job.duration });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    loaderCpuMs: (used.user + used.system) / 1000,
    wallMs,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    byStatusClass: { '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    errors: result.errors + result.timeouts,
  };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.({ ok: true, result }),
    (error: unknown) => process.send?.({ ok: false, error: String(error) }),
  );
});
