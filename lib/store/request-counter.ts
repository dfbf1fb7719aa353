import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB requests this process has sent, by operation (`GetItem`, `Query`, `TransactWriteItems` …). */
export interface RequestCounts {
  total: number;
  byOperation: Record<string, number>;
}

/**
 * Counts every request a client sends, so tests and the benchmark can state the DynamoDB work
 * of a poll instead of guessing it. Read `snapshot()` before and after, and subtract.
 */
export interface RequestCounter {
  snapshot(): RequestCounts;
}

/**
 * Installs the counter as a middleware on the client's stack. It sits in `finalizeRequest`
 * below the retry middleware, so each attempt that goes on the wire counts (a throttled and
 * retried GetItem is two requests, as DynamoDB sees it).
 */
export function countRequests(db: DynamoDBDocumentClient): RequestCounter {
  const byOperation = new Map<string, number>();
  db.middlewareStack.add(
    (next, context) => (args) => {
      const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
      byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'togglesRequestCounter', override: true },
  );
  return {
    snapshot: () => {
      const counts = Object.fromEntries(byOperation);
      return { total: Object.values(counts).reduce((sum, n) => sum + n, 0), byOperation: counts };
    },
  };
}

/** What happened between two snapshots. */
export function countsSince(before: RequestCounts, after: RequestCounts): RequestCounts {
  const byOperation: Record<string, number> = {};
  for (const [operation, count] of Object.entries(after.byOperation)) {
    const delta = count - (before.byOperation[operation] ?? 0);
    if (delta > 0) byOperation[operation] = delta;
  }
  return { total: after.total - before.total, byOperation };
}
