import { inject } from 'vitest';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../scripts/local/aws-like-dynamodb/engine.js';

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
