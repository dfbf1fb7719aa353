import { inject } from 'vitest';
import { startAwsLikeDynamoDb, type AwsLikeEngine, type AwsLikeOptions, type AwsLikeStats } from '../../local/aws-like-dynamodb/engine.js';

export interface Gate {
  /** Resolves once the engine holds the transaction's items. */
  holding: Promise<void>;
  /** Lets the held transaction go on to DynamoDB Local. */
  release: () => void;
}

/**
 * The AWS-like engine in front of DynamoDB Local itself (never the run's engine), able to hold one
 * transaction in flight until the test lets it go: overlaps are made, not timed.
 */
export async function gatedEngine(): Promise<{ engine: AwsLikeEngine; holdNext: () => Gate; stop: () => Promise<void> }> {
  let next: { arrived: () => void; released: Promise<void> } | undefined;
  let release: () => void = () => undefined;
  const engine = await startAwsLikeDynamoDb({
    target: inject('dynamodbLocal').endpoint,
    transactionHoldMs: 0,
    // Only the first transaction after `holdNext()` waits; the others pass at once.
    hold: async () => {
      const gate = next;
      if (!gate) return;
      next = undefined;
      gate.arrived();
      await gate.released;
    },
  });
  return {
    engine,
    holdNext: () => {
      let arrived: () => void = () => undefined;
      const holding = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      next = { arrived, released };
      return { holding, release };
    },
    stop: async () => {
      release();
      await engine.stop();
    },
  };
}

/**
 * What the fuzz and concurrency suites inject: 2 % of DynamoDB requests answered
 * InternalServerError (the SDK tries each call twice locally, so about 1 call in 2,500 fails
 * for good and the service must answer 503 with Retry-After, having written nothing), and 5 %
 * delayed by 5 ms, which reorders concurrent requests. Conflicts and throttling are always on.
 */
export const LOW_FAULTS = { faultRate: 0.02, latencyRate: 0.05, latencyMs: 5 } as const;

/**
 * An AWS-like engine of the suite's own in front of DynamoDB Local itself (never the run's
 * engine), injecting LOW_FAULTS from `seed`; the caller stops it in afterAll.
 */
export function faultyEngine(seed: number, options: Partial<AwsLikeOptions> = {}): Promise<AwsLikeEngine> {
  return startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint, seed, ...LOW_FAULTS, ...options });
}

/** The engine's refusals between two snapshots: faults, throttles and conflicts it answered. */
export function refusalsBetween(before: AwsLikeStats, after: AwsLikeStats): number {
  const count = (stats: AwsLikeStats) => stats.faults + stats.throttled + stats.cancelledTransactions + stats.singleItemConflicts;
  return count(after) - count(before);
}
