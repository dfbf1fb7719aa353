import { ServiceUnavailable } from '../../lib/errors.js';
import type { Feature } from '../../lib/features/model.js';
import type { FeatureStore } from '../../lib/features/store.js';

/** A feature as stored, active and off everywhere, with what `overrides` sets. */
export function storedFeature(name: string, project: string, overrides: Partial<Feature> = {}): Feature {
  return {
    name, project, type: 'release', description: null, impressionData: false, stale: false, archived: false, archivedAt: null,
    createdAt: new Date().toISOString(), environments: {}, tags: [], dependencies: [], children: [], version: 1, ...overrides,
  };
}

/**
 * Writes many new features fast, through the feature store port: `perCommit` features a
 * transaction (a transaction holds at most 100 items; each feature is one, plus the revision),
 * `parallel` transactions at a time. Project feature counts are not moved: for tests that need
 * thousands of features and read them back, not for tests of the project limit. A commit that
 * DynamoDB throttled (all features share one partition key: beyond 1,000 write units a second,
 * which the AWS-like engine enforces) wrote nothing and is sent again.
 */
export async function seedFeatures(store: FeatureStore, features: Feature[], { perCommit = 40, parallel = 4 } = {}): Promise<void> {
  const batches: Feature[][] = [];
  for (let i = 0; i < features.length; i += perCommit) batches.push(features.slice(i, i + perCommit));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as Feature[];
      const outcome = await resendWhileThrottled(() => store.commit({ writes: batch.map((after) => ({ before: undefined, after })) }));
      if (!outcome.ok) throw new Error(`seeding ${batch.length} features failed: ${JSON.stringify(outcome)}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/**
 * Calls `commit` again while it throws ServiceUnavailable, which a throttled or cancelled write
 * throws having written nothing: for a test's setup, whose writes must land, not be measured.
 */
export async function resendWhileThrottled<T>(commit: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await commit();
    } catch (error) {
      if (!(error instanceof ServiceUnavailable) || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * Math.min(attempt, 10)));
    }
  }
}
