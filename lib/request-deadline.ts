import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceUnavailable } from './errors.js';
import { WRITE_BUDGET_MS } from './time-budget.js';

/**
 * When the current admin request's time is up, set once per request by the HTTP chain, so that
 * every write can be checked against it in one place (lib/store/late-writes.ts) rather than
 * by every store. It travels in the async context because the check sits in a DynamoDB client
 * middleware, which no argument reaches. Everything else a service needs, who acts included,
 * it receives as arguments.
 *
 * The SDK API runs without it: AsyncLocalStorage turns on async hooks for the whole process, a
 * cost on every promise of every poll (see RouterOptions.keepsDeadline).
 */
const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with `deadline` (epoch milliseconds at which the function is stopped). */
export function runWithDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return deadlines.run(deadline, work);
}

/** Milliseconds the current request has left; undefined outside a request (start-up, jobs, the SDK API). */
export function timeLeft(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : deadline - Date.now();
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
