import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
 */
export function queueLocalRequests(db: DynamoDBDocumentClient, atOnce: number = LOCAL_REQUESTS_AT_ONCE): void {
  const turns = new Turns(atOnce);
  db.middlewareStack.add(
    (next) => async (args) => {
      await turns.take();
      try {
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

/** A counting semaphore whose waiters are served first come, first served. */
class Turns {
  private taken = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  take(): Promise<void> | undefined {
    if (this.taken < this.limit) {
      this.taken += 1;
      return undefined;
    }
    // A waiter is handed the turn of the request that ends (give), so `taken` stays as it is.
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken -= 1;
  }
}
