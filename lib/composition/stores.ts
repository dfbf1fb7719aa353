import { DynamoClientApplicationStore } from '../client/dynamo-application-store.js';
import { DynamoMetricsStore } from '../client/dynamo-metrics-store.js';
import { DynamoContextFieldStore } from '../context-fields/dynamo-store.js';
import { DynamoEnvironmentStore } from '../environments/dynamo-store.js';
import { DynamoEventStore } from '../events/dynamo-store.js';
import { SettledMonths } from '../events/settled-months.js';
import { DynamoFeatureReads, ProjectCopiesRecord } from '../features/dynamo-feature-reads.js';
import { DynamoFeatureStore } from '../features/dynamo-store.js';
import { ProjectCopies } from '../features/dynamo-project-copies.js';
import { DynamoProjectStore } from '../projects/dynamo-store.js';
import { DynamoSegmentStore } from '../segments/dynamo-store.js';
import { DynamoStrategyTypeStore } from '../strategies/dynamo-store.js';
import { DynamoTagTypeStore } from '../tag-types/dynamo-store.js';
import type { Composition } from './composition.js';

/*
 * DynamoDB adapters that several slices or ports read, one per process (through
 * `composition.once`). Each builder is its own export, so a function's bundle holds only the
 * adapters its slices and ports ask for.
 */

export const featureStore = (c: Composition) => new DynamoFeatureStore(
  c.store.db, c.store.tableName, c.store.revisions, undefined, new ProjectCopies(c.store.db, c.store.tableName, undefined, c.once(projectCopiesRecord)),
);
/** The features read alone (the SDK API's snapshot), without the store's writes in the bundle. */
export const featureReads = (c: Composition) => new DynamoFeatureReads(c.store.db, c.store.tableName, c.once(projectCopiesRecord));
/** Whether the copies of ADR 17 are made: read once per process, whether the reads or the store ask first. */
const projectCopiesRecord = (c: Composition) => new ProjectCopiesRecord(c.store.db, c.store.tableName);
export const projectStore = (c: Composition) => new DynamoProjectStore(c.store.db, c.store.tableName, c.store.revisions);
export const environmentStore = (c: Composition) => new DynamoEnvironmentStore(c.store.db, c.store.tableName);
/**
 * Change events read by time (insights, project statistics and status, the personal dashboard,
 * the state export), each month's settled events kept in the container: the project page and
 * the dashboard read weeks of events on every visit. Settling follows the real clock, which
 * stamps every event, never a composition's test clock.
 */
export const eventStore = (c: Composition) => new SettledMonths(new DynamoEventStore(c.store.db, c.store.tableName));
/** Last-seen times and hourly usage counters SDKs report (ADR 15). */
export const metricsStore = (c: Composition) => new DynamoMetricsStore(c.store.db, c.store.tableName);
export const segmentStore = (c: Composition) => new DynamoSegmentStore(c.store.db, c.store.tableName, c.store.revisions);
export const contextFieldStore = (c: Composition) => new DynamoContextFieldStore(c.store.db, c.store.tableName);
export const tagTypeStore = (c: Composition) => new DynamoTagTypeStore(c.store.db, c.store.tableName);
/** Custom strategy types and the deprecation of built-in ones. */
export const strategyTypeStore = (c: Composition) => new DynamoStrategyTypeStore(c.store.db, c.store.tableName);
/** The applications SDKs registered, one per application and token scope. */
export const clientApplicationStore = (c: Composition) => new DynamoClientApplicationStore(c.store.db, c.store.tableName);
