/**
 * The load generator of `npm run bench`, in a child process of its own: on the same event
 * loop as the server it would steal the server's time. The parent sends one job per message
 * and gets the figures back.
 *
 * wrk (Debian's `wrk`, C on epoll, one thread) when it is installed, autocannon otherwise:
 * autocannon spends about a core per 700 full 1 MB answers, so on two cores it, not the server,
 * limited the full-body runs; wrk spends a tenth of that per answer, which leaves the cores to
 * the server and makes the run measure it.
 */
import autocannon from 'autocannon';
import { loadTool, runWrk } from './wrk.js';

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
  /** Which load generator ran: `wrk` or `autocannon`. */
  tool: LoadTool;
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  total: number;
  /** Answers with a status of 400 or more. */
  refused: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** The load generator's own CPU time over the measured run (user + system), ms. */
  loaderCpuMs: number;
  /** The measured run's wall time, ms. */
  wallMs: number;
}

export type LoadTool = 'wrk' | 'autocannon';

async function runAutocannon(job: LoadJob): Promise<LoadResult> {
  const options = { url: job.url, headers: job.headers, connections: job.connections };
  if (job.warmup > 0) await autocannon({ ...options, duration: job.warmup });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({ ...options, duration: job.duration });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    tool: 'autocannon',
    loaderCpuMs: (used.user + used.system) / 1000,
    wallMs,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    refused: result['4xx'] + result['5xx'],
    errors: result.errors + result.timeouts,
  };
}

const tool = loadTool();

process.on('message', (job: LoadJob) => {
  (tool === 'wrk' ? runWrk(job) : runAutocannon(job)).then(
    (result) => process.send?.({ ok: true, result }),
    (error: unknown) => process.send?.({ ok: false, error: String(error) }),
  );
});
