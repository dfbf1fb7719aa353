/**
 * Our own path per poll, without the network: the client group's Lambda handler called
 * in-process with the API Gateway event the local server would build. This is what a warm
 * Lambda spends per poll (and what its duration bills); the HTTP runs also pay for sockets and
 * for the event translation API Gateway does in the cloud.
 */
import type { LambdaHandler } from '../../lib/http/router.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';

/**
 * Calls per batch for an answer of `bytes`: 20,000 for small answers, fewer for large ones so
 * that a batch of multi-megabyte answers (each base64-encoded, as Lambda returns them) stays
 * within a few seconds.
 */
export function handlerCalls(bytes: number): number {
  return Math.max(50, Math.min(20_000, Math.round(200_000_000 / Math.max(1, bytes))));
}

/** Wall time a batch may take: an answer that is slow to make (a plain poll at 10,000 flags) is timed on fewer calls. */
const BATCH_BUDGET_MS = 2_000;

/** Microseconds per call, the best of three batches (other work on the machine only slows one down); a batch stops at `calls` or after 2 s. */
export async function handlerMicros(handler: LambdaHandler, headers: Record<string, string>, calls = 20_000): Promise<number> {
  const event = () =>
    toApiGatewayEvent({
      method: 'GET', url: '/api/client/features', headers: { ...headers }, body: Buffer.alloc(0),
      routeKey: 'GET /api/client/features', pathParameters: {}, sourceIp: '127.0.0.1',
    });
  let best = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < 3; batch += 1) {
    const started = performance.now();
    let done = 0;
    while (done < calls && (done === 0 || performance.now() - started < BATCH_BUDGET_MS)) {
      await handler(event(), localContext('bench-client'));
      done += 1;
    }
    best = Math.min(best, ((performance.now() - started) * 1000) / done);
  }
  return best;
}
