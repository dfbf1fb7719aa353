import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { createComposition } from '../../lib/composition/composition.js';
import { loadConfig } from '../../lib/config.js';
import { eventItem } from '../../lib/events/dynamo-store.js';
import { changeEvent } from '../../lib/events/model.js';
import { log } from '../../lib/log.js';
import { runWithDeadline } from '../../lib/request-deadline.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import { WRITE_BUDGET_MS } from '../../lib/time-budget.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { startLocalIntegrations } from '../../local/integrations-pipeline.js';
import { unique } from '../support/services.js';

/**
 * In AWS the integrations fan-out reads the table's stream in an invocation of its own; locally
 * it is chained from the writing request's DynamoDB call, and must not carry that request's
 * deadline: the local request queue refuses a call made after its request's time is over
 * (lib/store/local-request-queue.ts), which would drop the change event for integrations.
 */
const engines: AwsLikeEngine[] = [];

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
});

const DAY_MS = 24 * 60 * 60_000;

describe('the local integrations fan-out', () => {
  it('reads the integrations of an event written by a request whose time ended before the fan-out ran', async () => {
    const tableName = inject('dynamodb').tableName;
    let releaseListing!: () => void;
    const listingHeld = new Promise<void>((resolve) => (releaseListing = resolve));
    let firstListingArrived!: () => void;
    const firstListing = new Promise<void>((resolve) => (firstListingArrived = resolve));
    let listings = 0;
    const engine = await startAwsLikeDynamoDb({
      target: inject('dynamodbLocal').endpoint,
      // The first fan-out's read of the integrations waits for the test, so the second fan-out,
      // chained after it as a stream shard is read, starts only once the test lets it.
      delay: (operation, body) => {
        if (operation !== 'Query' || !JSON.stringify(body.ExpressionAttributeValues ?? {}).includes('"INTEGRATIONS"')) return undefined;
        listings += 1;
        if (listings > 1) return undefined;
        firstListingArrived();
        return listingHeld;
      },
    });
    engines.push(engine);
    const composition = createComposition(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, AWS_REGION: 'local' }));
    const integrations = startLocalIntegrations(composition, { timers: false });
    const errors = vi.spyOn(log, 'error');
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now');
    let releaseLong!: () => void;
    const long = runWithDeadline(realNow() + DAY_MS, () => new Promise<void>((resolve) => (releaseLong = resolve)));
    try {
      // Another request running keeps the deadline's async context on throughout.
      const writeEvent = (deadline: number) =>
        runWithDeadline(deadline, async () => {
          const event = changeEvent('feature-created', { project: 'default', featureName: unique('fan-out') }, 'test');
          return (await transactWriteDetailed(composition.store.db, [eventItem(tableName, event)])).ok;
        });
      expect(await writeEvent(realNow() + DAY_MS)).toBe(true);
      await firstListing;
      const shortDeadline = realNow() + WRITE_BUDGET_MS + 60_000;
      expect(await writeEvent(shortDeadline)).toBe(true);
      // The second request's time is over (the clock moves on, not the test) before its fan-out starts.
      const shift = shortDeadline - realNow() + 60_000;
      clock.mockImplementation(() => realNow() + shift);
      releaseListing();
      await integrations.stop();
    } finally {
      clock.mockRestore();
      releaseLong();
      await long;
      releaseListing();
      await integrations.stop();
    }
    const logged = errors.mock.calls.map((call) => call.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
    errors.mockRestore();
    expect(logged).toEqual([]);
    expect(listings).toBe(2);
  });
});
