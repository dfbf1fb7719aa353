/**
 * wrk as `npm run bench`'s load generator (local/bench/load.ts): one thread, the run's summary as
 * JSON from wrk-summary.lua, and wrk's own CPU from the shell that waited for it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult, LoadTool } from './load.js';

/** wrk when `wrk` runs here (BENCH_LOAD_TOOL=autocannon forces the fallback). */
export function loadTool(environment: NodeJS.ProcessEnv = process.env): LoadTool {
  if (environment.BENCH_LOAD_TOOL === 'autocannon') return 'autocannon';
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return probe.error === undefined ? 'wrk' : 'autocannon';
}

const WRK_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'wrk-summary.lua');

/** What `wrk -s wrk-summary.lua` printed last, and the shell's `times` after it (wrk's CPU, as a waited-for child). */
export function parseWrkOutput(stdout: string): { summary: WrkSummary; cpuMs: number } {
  const lines = stdout.trim().split('\n');
  const json = lines.findLast((line) => line.startsWith('{'));
  if (json === undefined) throw new Error(`wrk printed no summary:\n${stdout.slice(-2000)}`);
  // `times` prints the shell's user and system time, then its children's: `0m1.250000s 0m0.310000s`.
  const children = lines.at(-1)?.trim().split(/\s+/) ?? [];
  const seconds = (text: string | undefined) => {
    const match = /^(\d+)m([\d.]+)s$/.exec(text ?? '');
    if (!match) throw new Error(`not a time from the shell's times: ${text}`);
    return Number(match[1]) * 60 + Number(match[2]);
  };
  return { summary: JSON.parse(json) as WrkSummary, cpuMs: (seconds(children[0]) + seconds(children[1])) * 1000 };
}

interface WrkSummary {
  requests: number;
  durationMicros: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  statusErrors: number;
  timeouts: number;
  p50Micros: number;
  p99Micros: number;
}

function wrk(job: LoadJob, seconds: number): Promise<string> {
  const headers = Object.entries(job.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t1', `-c${job.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', WRK_SCRIPT, ...headers, job.url];
  // sh waits for wrk, then `times` reports the CPU of the children it waited for: wrk's own.
  const child = spawn('sh', ['-c', 'wrk "$@" && times', 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrk exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

export async function runWrk(job: LoadJob): Promise<LoadResult> {
  if (job.warmup > 0) await wrk(job, job.warmup);
  const started = performance.now();
  const { summary, cpuMs } = parseWrkOutput(await wrk(job, job.duration));
  const wallMs = performance.now() - started;
  return {
    tool: 'wrk',
    loaderCpuMs: cpuMs,
    // wrk's own measured span, without the process start and exit around it.
    wallMs: summary.durationMicros > 0 ? summary.durationMicros / 1000 : wallMs,
    requestsPerSecond: summary.durationMicros > 0 ? summary.requests / (summary.durationMicros / 1e6) : 0,
    p50: summary.p50Micros / 1000,
    p99: summary.p99Micros / 1000,
    total: summary.requests,
    refused: summary.statusErrors,
    errors: summary.connectErrors + summary.readErrors + summary.writeErrors + summary.timeouts,
  };
}

