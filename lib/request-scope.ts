import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceUnavailable } from './errors.js';
import { WRITE_BUDGET_MS } from './time-budget.js';

/**
 * What the HTTP chain knows about the current admin request, set once per request so that
 * deep code can use it without every service call carrying it: who acts (change events name
 * them) and when the request's time is up (writes are not started too late to finish).
 *
 * The SDK API runs without it: AsyncLocalStorage turns on async hooks for the whole process, a
 * cost on every promise of every poll (see RouterOptions.namesActor).
 */
export interface RequestScope {
  actor: string;
  /** Epoch milliseconds at which the function is stopped (its context's remaining time). */
  deadline: number;
}

const scope = new AsyncLocalStorage<RequestScope>();

export function runInRequest<T>(request: RequestScope, work: () => Promise<T>): Promise<T> {
  return scope.run(request, work);
}

export function currentActor(): string {
  return scope.getStore()?.actor ?? 'system';
}

/** Milliseconds the current request has left; undefined outside a request (start-up, jobs, the SDK API). */
export function timeLeft(): number | undefined {
  const request = scope.getStore();
  return request ? request.deadline - Date.now() : undefined;
}

/**
 * Whether a write may start now: outside a request always; inside one only while the write
 * budget is left (lib/time-budget.ts), so a started write ends before the request must answer.
 */
export function hasTimeToWrite(): boolean {
  const left = timeLeft();
  return left === undefined || left >= WRITE_BUDGET_MS;
}

/** A write refused before it started, for want of time: nothing was stored, so retrying is safe. */
export class TooLateToWrite extends ServiceUnavailable {
  constructor() {
    super('The request ran out of time before its change could be written safely; nothing was changed. Try again.');
  }
}
