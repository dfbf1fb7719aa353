import { DynamoFeatureStore } from '../features/dynamo-store.js';
import type { Composition } from './composition.js';

/*
 * DynamoDB adapters that several slices or ports read, one per process (through
 * `composition.once`). Each builder is its own export, so a function's bundle holds only the
 * adapters its slices and ports ask for.
 */

export const featureStore = (c: Composition) => new DynamoFeatureStore(c.store.db, c.store.tableName, c.store.revisions);
