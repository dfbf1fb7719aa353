import type { MigrationReport } from './run.js';

/** Lines of one list shown before the rest is counted, so a report of a large instance stays readable. */
const SHOWN = 40;

/** The final report a person reads: what was copied, what was skipped and why, what needs them. */
export function formatReport(report: MigrationReport, from: string, to: string): string {
  const lines: string[] = [];
  lines.push(`${report.dryRun ? 'Plan (dry run, nothing written)' : 'Migration'}: ${from} -> ${to}`);
  lines.push('');
  lines.push(`${'kind'.padEnd(18)}${['same', report.dryRun ? 'to write' : 'created', 'updated', 'pruned', 'skipped', 'failed'].map((h) => h.padStart(9)).join('')}`);
  for (const kind of report.kinds) {
    const written = report.dryRun ? kind.planned.length : kind.created.length;
    lines.push(`${kind.kind.padEnd(18)}${[kind.same, written, kind.updated.length, kind.pruned.length, kind.skipped.length, kind.failed.length].map((n) => String(n).padStart(9)).join('')}`);
  }
  if (report.dryRun) section(lines, 'Plan', report.kinds.flatMap((kind) => kind.planned.map((step) => `${kind.kind}: ${step.action} ${step.key}${step.detail ? ` (${step.detail})` : ''}`)));
  section(lines, 'Updated', report.kinds.flatMap((kind) => kind.updated.map((step) => `${kind.kind}: ${step.key} (${step.fields})`)));
  section(lines, 'Skipped', report.kinds.flatMap((kind) => kind.skipped.map((step) => `${kind.kind}: ${step.key}: ${step.reason}`)));
  section(lines, 'Failed', report.kinds.flatMap((kind) => kind.failed.map((step) => `${kind.kind}: ${step.key}: ${step.error}`)));
  section(lines, 'Needs a person', report.needsPerson);
  const kept = report.tokenPairs.filter((pair) => pair.sameSecret).length;
  const renewed = report.needsPerson.filter((line) => line.startsWith('API token ')).length;
  lines.push('', `API tokens: ${kept} work on the target with the same secret${renewed > 0 ? `, ${renewed} have a new one (listed under "Needs a person")` : ''}`);
  if (report.verification) {
    const v = report.verification;
    lines.push('', `Verification: ${v.clientTokens} client tokens, ${v.frontendTokens} frontend tokens x ${v.contexts} contexts, ${v.flagsCompared} flag answers compared: ${v.differences.length === 0 ? 'no difference' : `${v.differences.length} differences`}`);
    section(lines, 'Differences', v.differences);
    section(lines, 'Differences with a known cause (not failures)', v.explained);
  }
  lines.push('', `Requests: ${report.requests.from} to the source, ${report.requests.to} to the target; ${(report.durationMs / 1000).toFixed(1)} s`);
  lines.push(report.ok ? 'Result: OK' : 'Result: FAILED (see above)');
  return `${lines.join('\n')}\n`;
}

function section(lines: string[], title: string, items: string[]) {
  if (items.length === 0) return;
  lines.push('', `${title}:`);
  for (const item of items.slice(0, SHOWN)) lines.push(`  ${item}`);
  if (items.length > SHOWN) lines.push(`  ... and ${items.length - SHOWN} more`);
}
