/**
 * The admin lists at N flags through a local server that holds answers to Lambda's 6 MB but
 * waits for them as long as they take (as `pollCost` does for the cold poll): each one's status,
 * bytes as sent, wall time and read units, and whether it would have been answered within the
 * function's 10 s (else it gets the stack's 503). The deprecated full lists and an unfiltered
 * search read every feature; a project's search reads that project's copies (ADR 17).
 */
import { FUNCTION_TIMEOUT_MS } from '../../lib/time-budget.js';
import type { BenchDynamo } from './dynamo.js';
import { benchProject } from './fast-seed.js';
import { capture } from './reference.js';

export interface AdminListCost {
  name: string;
  path: string;
  gzip: boolean;
  status: number;
  bytes: number;
  wallMs: number;
  pastTimeout: boolean;
  /** Read units consumed; undefined without the AWS-like engine. */
  readUnits: number | undefined;
  /** The answer's error name and message, when it is not a 200. */
  refusal: string | undefined;
}

const SEARCH = '/api/admin/search/features';

/** The patient server's function and integration timeouts: long enough for a full list at 50,000 flags on a busy machine. */
export const PATIENT_TIMEOUT_MS = 600_000;

export async function adminListCosts(baseUrl: string, token: string, dynamo: BenchDynamo, flags: number): Promise<AdminListCost[]> {
  const lastProject = benchProject(flags - 1);
  const lists = [
    { name: `search, project ${lastProject}, first page`, path: `${SEARCH}?project=IS%3A${lastProject}&offset=0&limit=100`, gzip: true },
    { name: 'search, every project, last page', path: `${SEARCH}?offset=${Math.max(0, flags - 100)}&limit=100`, gzip: true },
    { name: 'E15 all features', path: '/api/admin/features', gzip: true },
    { name: 'E15 all features', path: '/api/admin/features', gzip: false },
    { name: 'state export', path: '/api/admin/state/export', gzip: true },
  ];
  const costs: AdminListCost[] = [];
  for (const list of lists) {
    const units = dynamo.units();
    const started = performance.now();
    const answer = await capture(`${baseUrl}${list.path}`, { authorization: token, ...(list.gzip ? { 'accept-encoding': 'gzip' } : {}) });
    const wallMs = performance.now() - started;
    const after = dynamo.units();
    costs.push({
      ...list, status: answer.status, bytes: answer.body.length, wallMs, pastTimeout: wallMs > FUNCTION_TIMEOUT_MS,
      readUnits: units && after ? after.read - units.read : undefined,
      refusal: answer.status === 200 ? undefined : refusalOf(answer.body),
    });
  }
  return costs;
}

function refusalOf(body: Buffer): string {
  try {
    const { name, message } = JSON.parse(body.toString()) as { name?: string; message?: string };
    return `${name}: ${message}`;
  } catch {
    return body.toString().slice(0, 200);
  }
}
