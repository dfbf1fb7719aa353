/**
 * CPU accounting for the load runs: what the server process and the load generator each spent,
 * so the bench can say which one limited a run. Requests per second depend on the load
 * generator; server CPU time per request does not.
 */
import { readFileSync } from 'node:fs';

/** A process counts as saturated at this share of one core over a run. */
export const SATURATED = 0.9;

export interface RunCpu {
  /** Server process CPU (user + system) over the measured run, ms. */
  serverCpuMs: number;
  /** Load generator CPU over the measured run, ms. */
  loaderCpuMs: number;
  wallMs: number;
  requests: number;
  /** Cores of the machine. */
  cores: number;
  /** Share of all cores busy over the run, every process counted (/proc/stat); undefined where unknown. */
  machineBusy?: number | undefined;
}

/** The machine's CPU time so far, in clock ticks, from /proc/stat's first line; undefined off Linux. */
export function machineTicks(read: () => string = () => readFileSync('/proc/stat', 'utf8')): { busy: number; total: number } | undefined {
  try {
    const fields = read().split('\n')[0]?.trim().split(/\s+/) ?? [];
    if (fields[0] !== 'cpu') return undefined;
    // user nice system idle iowait irq softirq steal (guest times are inside user and nice)
    const ticks = fields.slice(1, 9).map(Number);
    const total = ticks.reduce((sum, n) => sum + n, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Busy share of all cores between two readings. */
export function busyShare(before: { busy: number; total: number } | undefined, after: { busy: number; total: number } | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

/** Server CPU per request in µs; NaN without requests. */
export function serverMicrosPerRequest(run: Pick<RunCpu, 'serverCpuMs' | 'requests'>): number {
  return run.requests > 0 ? (run.serverCpuMs * 1000) / run.requests : Number.NaN;
}

/** Busy share of one core over the run (1 = one core fully busy). Both processes are single-threaded event loops. */
export const coreShare = (cpuMs: number, wallMs: number): number => (wallMs > 0 ? cpuMs / wallMs : 0);

/**
 * What limited a run. A single-threaded process at ≥ 90% of a core limits it; when both are,
 * the one closer to its core does. When neither reaches a core but all cores were ≥ 90% busy,
 * the cores were the limit: the server and the load generator shared them, with each other and
 * with whatever else ran on the machine. Otherwise the run waited on neither.
 */
export function limitOf(run: RunCpu): string {
  const server = coreShare(run.serverCpuMs, run.wallMs);
  const loader = coreShare(run.loaderCpuMs, run.wallMs);
  if (loader >= SATURATED || server >= SATURATED) return loader >= server ? 'load generator' : 'server';
  const both = server + loader;
  if (run.machineBusy !== undefined && run.machineBusy >= SATURATED) {
    const others = Math.max(0, run.machineBusy * run.cores - both);
    return `cores (all ${run.cores} busy; ${(others * 100).toFixed(0)}% of a core went to other processes)`;
  }
  if (run.machineBusy === undefined && both >= SATURATED * run.cores) return `cores (server and load generator fill all ${run.cores})`;
  return 'neither (latency-bound)';
}
