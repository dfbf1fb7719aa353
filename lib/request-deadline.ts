import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceUnavailable } from './errors.js';
import { WRITE_BUDGET_MS } from './time-budget.js';

/**
 * Two facts about the current admin request that its writes need: when its time is up (set once
 * by the HTTP chain) and whether one of its writes has landed (set by the DynamoDB client), both
 * kept in one place (lib/store/late-writes.ts) rather than by every store. They travel in the
 * async context because that check sits in a DynamoDB client middleware, which no argument
 * reaches. Everything else a service needs, who acts included, it receives as arguments.
 *
 * The SDK API runs without it: AsyncLocalStorage turns on async hooks for the whole process, a
 * cost on every promise of every poll (see RouterOptions.keepsDeadline).
 */
interface RequestWrites {
  /** Epoch milliseconds at which the function is stopped. */
  deadline: number;
  /** A write of this request has been stored. */
  landed: boolean;
}

const requests = new AsyncLocalStorage<RequestWrites>();

/**
 * Requests running with a deadline now. Once none runs, the storage is disabled, which turns
 * the async hooks off again: they cost every promise in the process, and where one process
 * serves the SDK API beside the admin API (the local server), one admin request would otherwise
 * tax every later poll. Nothing awaited by a running request loses its deadline, since none is
 * running then, and the next request turns the hooks back on. The disabling waits for the event
 * loop's next turn (an immediate), outside every promise callback, rather than happening in the
 * last request's own continuation, whose bookkeeping the hooks are in the middle of.
 */
let running = 0;

function disableWhenIdle(): void {
  if (running === 0) requests.disable();
}

/**
 * Runs `work` with `deadline` (epoch milliseconds at which the function is stopped). A 503
 * "nothing was changed" thrown after one of its writes landed is answered as what it is: some
 * of the change was stored (a read after the commit failed, or a later batch could not be written).
 */
export async function runWithDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  const request: RequestWrites = { deadline, landed: false };
  running += 1;
  try {
    return await requests.run(request, work);
  } catch (error) {
    if (request.landed && error instanceof ServiceUnavailable && !(error instanceof WrittenBeforeFailure)) {
      throw new WrittenBeforeFailure(error);
    }
    throw error;
  } finally {
    running -= 1;
    if (running === 0) setImmediate(disableWhenIdle);
  }
}

/**
 * Runs `work` as no request's own: what it starts (its DynamoDB calls, timers, promise
 * callbacks) has no deadline, ranks in the local request queue as work outside every request,
 * and is not stopped when the request that happened to start it runs out of time. For work
 * that outlives the request or serves others besides it: a read shared by every caller that
 * comes while it runs (a request whose time is up must not fail the others' answers with its
 * own 503; each waiter still has its own deadline for its own wait), and the local stand-ins
 * for what runs as its own invocation in AWS (the stream's fan-out, the queue's deliveries).
 */
export function outsideRequest<T>(work: () => T): T {
  return requests.exit(work);
}

/** Called by the DynamoDB client after a write of the current request was stored. */
export function noteWriteLanded(): void {
  const request = requests.getStore();
  if (request) request.landed = true;
}

/** Milliseconds the current request has left; undefined outside a request (start-up, jobs, the SDK API). */
export function timeLeft(): number | undefined {
  const request = requests.getStore();
  return request === undefined ? undefined : request.deadline - Date.now();
}

/** Epoch milliseconds at which the current request's function is stopped; undefined outside a request. */
export function currentDeadline(): number | undefined {
  return requests.getStore()?.deadline;
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

/** A failure after some of the request's change was stored: the client must look before it resends. */
export class WrittenBeforeFailure extends ServiceUnavailable {
  constructor(cause: ServiceUnavailable) {
    super('Some or all of this change was stored before the request failed; check the current state before sending it again.', { cause });
  }
}
