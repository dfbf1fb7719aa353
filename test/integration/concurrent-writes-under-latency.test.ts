import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CommitOutcome } from '../../lib/features/store.js';
import { localContext } from '../../local/api-gateway-event.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { adminSession, apiClient, type ApiRequest, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { testServices } from '../support/services.js';

// Many changes racing on one flag when every DynamoDB request is slow: every DynamoDB request
// here is delayed LATENCY_MS by an AWS-like engine of this file's own (seeded; every request, so
// the 8 requests move in step and read the flag together). One commit wins each round and the
// others retry on a fresh read, so the last of the 8 commits after about 8 rounds of 3 round trips
// (the flag, the revision shard, the transaction). No change may be lost or stored twice, and every
// refused commit must be a lost race.
//
// What decides here is the count of commits, not a time: the requests get a timeout far beyond
// what the round trips need, so a loaded machine cannot turn an answer into a 503.
const LATENCY_MS = 100;
const REQUEST_TIMEOUT_MS = 120_000;
const SEED = 29;

const { call, token } = adminSession();
const steps = featureSteps(call, token);
let engine: AwsLikeEngine | undefined;
let slow: (request: ApiRequest) => Promise<ApiResponse>;
/** Each feature commit through the slow engine: how many changes (events) it carried, and its outcome. */
const commits: Array<{ changes: number; outcome: CommitOutcome }> = [];

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint, seed: SEED, latencyRate: 1, latencyMs: LATENCY_MS });
  const services = testServices({ DYNAMODB_ENDPOINT: engine.endpoint });
  const commit = services.featureStore.commit.bind(services.featureStore);
  services.featureStore.commit = async (change) => {
    const outcome = await commit(change);
    commits.push({ changes: change.events?.length ?? 0, outcome });
    return outcome;
  };
  const send = apiClient(services);
  slow = (request) => send({ ...request, context: localContext('test-features', REQUEST_TIMEOUT_MS) });
});

afterAll(async () => {
  if (engine) console.log(`concurrent writes under ${LATENCY_MS} ms latency, seed ${SEED}: ${JSON.stringify(engine.stats())}`);
  await engine?.stop();
});

describe('many concurrent changes to one flag on a slow store', () => {
  it('are all answered 201 and stored once, each with its event, every refused commit a lost race', async () => {
    const name = await steps.createFeature();
    const values = Array.from({ length: 8 }, (_, i) => `tag-${i}`);

    const results = await Promise.all(
      values.map((value) => slow({ method: 'POST', path: `/api/admin/features/${name}/tags`, token, body: { value } })),
    );
    const tags = await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token });
    const events = await call({ method: 'GET', path: `/api/admin/events/${name}`, token });

    expect(results.map((res) => (res.status === 201 ? 201 : `${res.status} ${res.text}`))).toEqual(values.map(() => 201));
    expect(tags.body.tags.map((t: { value: string }) => t.value).sort()).toEqual(values);
    expect(events.body.events.filter((e: { type: string }) => e.type === 'feature-tagged')).toHaveLength(8);
    // Every refusal was a lost race, and each change was committed once, in a transaction of its own.
    const committed = commits.filter(({ outcome }) => outcome.ok);
    expect(commits.filter(({ outcome }) => !outcome.ok).map(({ outcome }) => !outcome.ok && outcome.reason)).toEqual(
      commits.filter(({ outcome }) => !outcome.ok).map(() => 'version-changed'),
    );
    expect(committed.map(({ changes }) => changes)).toEqual(values.map(() => 1));
    console.log(`8 changes: ${commits.length} commits, ${committed.length} committed, carrying ${committed.map(({ changes }) => changes).join(', ')} changes`);
  }, 180_000);
});
