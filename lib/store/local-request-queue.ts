import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors.js';
import { currentDeadline } from '../request-deadline.js';
import { UnconfirmedWrite } from './late-writes.js';
import { FUNCTION_TIMEOUT_MS } from '../time-budget.js';

/**
 * How many DynamoDB requests a process sends to a local engine at once; the SDK's own pool
 * size, so the engine sees the same concurrency as before this queue existed.
 */
export const LOCAL_REQUESTS_AT_ONCE = 50;

/**
 * Makes the requests beyond `atOnce` wait for their turn before the SDK sends them, for a client
 * of a local engine.
 *
 * In Lambda an instance serves one invocation at a time: its few concurrent requests never fill
 * the SDK's pool of 50 sockets. Locally one process serves every invocation at once through one
 * client, so 200 parallel creates put hundreds of requests on that pool. Left to the SDK, those
 * beyond 50 wait inside its HTTP agent, and its connection and request timeouts run while they
 * wait: on two loaded cores they passed 2 s and failed as "did not establish a connection",
 * a store outage that never happened, and the one retry joined the back of the same queue.
 * Waiting here instead, before the SDK's handler starts its timers, those timeouts measure
 * DynamoDB's part again (connecting and answering), which is what they are for.
 *
 * The wait is bounded by the request's own time, as in AWS: it comes before the late-write check
 * (late-writes.ts), so a write whose request ran short of time while it waited is refused
 * unsent, and a read that waits too long meets the chain's early answer.
 *
 * Turns go to the request whose function time ends first. In AWS an invocation's DynamoDB calls
 * wait for no other invocation's; served in the order they were made, the requests of a burst
 * advance together and all run out of time at once, where served by deadline the earlier ones
 * finish first. How much that saves depends on whether the turns or the CPU are short: 200
 * parallel creates of 10 s each at a load average of 12-23 stored none in the order made (2
 * runs), and 40, 3, 2, 2, 0, 0 and 0 by deadline (7 runs); the rest were 503s that stored nothing.
 * A call made once its request's time is over is not sent at all, as Lambda would have stopped
 * the invocation: after such a burst had been answered, its handlers went on to send 1,007
 * more requests over 10 s, which now stop at 59.
 */
export function queueLocalRequests(db: DynamoDBDocumentClient, atOnce: number = LOCAL_REQUESTS_AT_ONCE): void {
  const turns = new Turns(atOnce);
  db.middlewareStack.add(
    (next, context) => async (args) => {
      // Calls outside an admin request (start-up, jobs, the SDK API) keep no deadline: they rank
      // as if they had just started a function's full time.
      const deadline = currentDeadline();
      await turns.take(deadline ?? Date.now() + FUNCTION_TIMEOUT_MS);
      try {
        // Lambda stops an invocation at its deadline, and its calls with it; locally the handler
        // runs on after the answer was given, and its calls would only take turns from live ones.
        // Unsent, this attempt changes nothing, but an earlier attempt of the same call that timed
        // out may have (late-writes.ts keeps that on the call's context).
        if (deadline !== undefined && deadline <= Date.now()) {
          throw (context as { togglesUnknownOutcome?: boolean }).togglesUnknownOutcome ? new UnconfirmedWrite() : new FunctionStopped();
        }
        return await next(args);
      } finally {
        turns.give();
      }
    },
    // Inside the SDK's retries (priority high), so a retry waits for a turn of its own, and
    // around the late-write check (priority low), so that check runs once the turn has come.
    { step: 'finalizeRequest', priority: 'normal', name: 'togglesLocalRequestQueue', override: true },
  );
}

/** A counting semaphore whose waiters are served earliest deadline first, then first come. */
export class Turns {
  private taken = 0;
  private arrivals = 0;
  private readonly waiting: Array<{ deadline: number; arrival: number; start: () => void }> = [];

  constructor(private readonly limit: number) {}

  take(deadline: number): Promise<void> | undefined {
    if (this.taken < this.limit) {
      this.taken += 1;
      return undefined;
    }
    // A waiter is handed the turn of the request that ends (give), so `taken` stays as it is.
    return new Promise<void>((start) => this.waiting.push({ deadline, arrival: (this.arrivals += 1), start }));
  }

  give(): void {
    if (this.waiting.length === 0) {
      this.taken -= 1;
      return;
    }
    let first = 0;
    for (let i = 1; i < this.waiting.length; i += 1) {
      const candidate = this.waiting[i]!;
      const best = this.waiting[first]!;
      if (candidate.deadline < best.deadline || (candidate.deadline === best.deadline && candidate.arrival < best.arrival)) first = i;
    }
    const [next] = this.waiting.splice(first, 1);
    next!.start();
  }
}

/** A call made after its request's function time ended, which Lambda would have stopped: never sent. */
class FunctionStopped extends ServiceUnavailable {
  constructor() {
    super('The request ran out of time; this call to the data store was not sent and nothing was changed.');
  }
}
