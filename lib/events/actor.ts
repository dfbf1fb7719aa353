import { runInRequest } from '../request-scope.js';

/**
 * Who is making the current change. The HTTP chain sets it once per request (the API token's
 * name), so change events can say who acted without every service call carrying it. It rides
 * on the request scope (lib/request-scope.ts), which also carries the request's deadline.
 */
export { currentActor } from '../request-scope.js';

/** Runs work as `name`, with no deadline (jobs and scripts; the HTTP chain sets its own scope). */
export function runAs<T>(name: string, work: () => Promise<T>): Promise<T> {
  return runInRequest({ actor: name, deadline: Number.POSITIVE_INFINITY }, work);
}
