/**
 * The server's access log (`npm start` with ACCESS_LOG=1, local/http-server.ts): one JSON line per
 * request on its standard output. "Counted on the server" in this suite means counted here.
 */
export interface AccessEntry {
  method: string;
  path: string;
  status: number;
  /** The `unleash-appname` header, else the body's `appName`; null when neither. */
  app: string | null;
  bytes: number;
}

/** The access lines of a server's output, in the order the answers were sent. */
export function accessEntries(output: string): AccessEntry[] {
  const entries: AccessEntry[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{"log":"access"')) continue;
    try {
      entries.push(JSON.parse(line) as AccessEntry);
    } catch {
      // A line still being written: the next read has it whole.
    }
  }
  return entries;
}

/** What an SDK application's requests added up to, on the server's side. */
export interface AppCounts {
  /** Polls of the flags: GET /api/client/features or /api/client/delta. */
  polls: number;
  /** Of the polls: answered 200, 304, 401 or 403. */
  ok: number;
  notModified: number;
  refused: number;
  registrations: number;
  metrics: number;
  bulkMetrics: number;
}

export const isPoll = (entry: AccessEntry) =>
  entry.method === 'GET' && (entry.path.endsWith('/api/client/features') || entry.path.endsWith('/api/client/delta'));

export function countsOf(entries: AccessEntry[], app?: string): AppCounts {
  const counts: AppCounts = { polls: 0, ok: 0, notModified: 0, refused: 0, registrations: 0, metrics: 0, bulkMetrics: 0 };
  for (const entry of entries) {
    if (app !== undefined && entry.app !== app) continue;
    if (isPoll(entry)) {
      counts.polls += 1;
      if (entry.status === 200) counts.ok += 1;
      else if (entry.status === 304) counts.notModified += 1;
      else if (entry.status === 401 || entry.status === 403) counts.refused += 1;
    } else if (entry.method === 'POST' && entry.status < 300) {
      if (entry.path.endsWith('/api/client/register')) counts.registrations += 1;
      else if (entry.path.endsWith('/api/client/metrics')) counts.metrics += 1;
      else if (entry.path.endsWith('/api/client/metrics/bulk')) counts.bulkMetrics += 1;
    }
  }
  return counts;
}
