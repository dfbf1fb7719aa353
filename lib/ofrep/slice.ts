import type { Slice, SliceContext } from '../slice.js';
import { ofrepOperations } from './operations.js';
import type { OfrepPorts } from './ports.js';
import { ofrepRoutes } from './routes.js';
import { OfrepService } from './service.js';
import { EvaluationCounter } from './usage.js';

/**
 * OFREP: the flags of a token's scope evaluated for an OpenFeature context, on the SDK API's
 * payload cache and metrics path (ports.ts), served by the frontend function beside the Frontend API.
 */
export function ofrepSlice(context: SliceContext, { payloads, usage }: OfrepPorts) {
  const now = context.now;
  const counter = new EvaluationCounter(usage, undefined, now ? () => now().getTime() : Date.now);
  const ofrep = new OfrepService(payloads, counter, now);
  return {
    routes: ofrepRoutes,
    operations: ofrepOperations({ ofrep }),
    ofrep,
    /** The evaluations counted and not yet sent (a test sends them at once). */
    evaluationCounts: counter,
  } satisfies Slice<typeof ofrepRoutes> & Record<string, unknown>;
}
