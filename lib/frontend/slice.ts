import type { Slice, SliceContext } from '../slice.js';
import { frontendOperations } from './operations.js';
import type { FrontendPorts } from './ports.js';
import { frontendRoutes } from './routes.js';
import { FrontendService } from './service.js';

/**
 * The Frontend API: every flag of a token's scope evaluated for the caller's context. The flags
 * and the usage reports go through the SDK API's own services (ports.ts); only the processes
 * that serve this slice load the evaluation engine.
 */
export function frontendSlice(_context: SliceContext, { payloads, usage }: FrontendPorts) {
  const frontend = new FrontendService(payloads);
  return {
    routes: frontendRoutes,
    operations: frontendOperations({ frontend, usage }),
    frontend,
  } satisfies Slice<typeof frontendRoutes> & Record<string, unknown>;
}
