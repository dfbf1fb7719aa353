/** The benchmark's printed tables, in Markdown so docs/performance.md can quote them as they are. */
import { cpus, loadavg, totalmem } from 'node:os';
import type { BundleReport } from './bundles.js';
import type { LoadResult } from './load.js';

export interface ScenarioResult {
  name: string;
  status: number;
  bytes: number;
  ours: LoadResult;
  dynamoPerPoll: number;
  bare: LoadResult;
  /** The share of the bare reference's req/s this scenario must reach. */
  target: number;
}

export function scenarioTable(results: ScenarioResult[]): string {
  const rows = results.map((r) => {
    const ratio = r.ours.requestsPerSecond / r.bare.requestsPerSecond;
    return [
      r.name, String(r.status), r.bytes.toLocaleString('en'), whole(r.ours.requestsPerSecond), ms(r.ours.p50), ms(r.ours.p99),
      r.dynamoPerPoll.toFixed(4), whole(r.bare.requestsPerSecond), ms(r.bare.p50), ms(r.bare.p99),
      `${(ratio * 100).toFixed(0)}%`, `≥ ${(r.target * 100).toFixed(0)}% ${ratio >= r.target ? 'met' : 'MISSED'}`,
    ];
  });
  return markdown(
    ['scenario', 'status', 'bytes/response', 'req/s', 'p50 ms', 'p99 ms', 'DynamoDB req/poll', 'bare req/s', 'bare p50', 'bare p99', 'ratio', 'target'],
    rows,
  );
}

export function bundleTable(bundles: BundleReport[]): string {
  return markdown(
    ['function', 'bundle (minified)', 'format', 'AWS SDK', 'module init (median)', 'target'],
    bundles.map((b) => [
      b.group, `${(b.bytes / 1024).toFixed(1)} KB`, b.bundle.format, b.bundle.awsSdk, `${b.initMs.toFixed(0)} ms`,
      b.group === 'client' ? `≤ 250 KB ${b.bytes <= 250 * 1024 ? 'met' : 'MISSED'}, ≤ 150 ms ${b.initMs <= 150 ? 'met' : 'MISSED'}` : '',
    ]),
  );
}

export function machine(): string {
  const cpu = cpus();
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`,
    `load average at the end (1/5/15 min): ${loadavg().map((n) => n.toFixed(2)).join(' / ')}`,
  ].join('\n');
}

function markdown(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const whole = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
