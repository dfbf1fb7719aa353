import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FirstStartData, SeedStore } from './first-start.js';
import { freshTableKeyFormatItem } from '../client/dynamo-metrics-store.js';
import { ProjectCopies } from '../features/dynamo-project-copies.js';
import { DynamoFeatureCounts } from '../features/dynamo-feature-counts.js';
import { projectItem } from '../projects/dynamo-store.js';
import { ensureGroupsRevision, freshTableGroupsRevisionItem } from '../store/groups-revision.js';
import { keys } from '../store/table-design.js';
import { transactWrite, type TransactWriteItem } from '../store/transact.js';

/**
 * Writes the first start's data and the seed marker in one transaction, conditional on the
 * marker. Concurrent first starts (several Lambdas, or the bootstrap resource on every deploy)
 * therefore write it exactly once, and never again once the marker exists.
 */
export class DynamoSeedStore implements SeedStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async plant(data: FirstStartData): Promise<boolean> {
    const put = (item: Record<string, unknown>): TransactWriteItem => ({ Put: { TableName: this.tableName, Item: item } });
    const planted = await transactWrite(this.db, [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.seed(), seededAt: data.project.createdAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      // A fresh table has no feature to copy: the copies' migration (ADR 17) has nothing to do.
      put(ProjectCopies.doneItem(data.project.createdAt)),
      // Nor any SDK counter under the metrics' earlier keys: the usage reads skip them from the start.
      put(freshTableKeyFormatItem()),
      put(projectItem(data.project)),
      ...new DynamoFeatureCounts(this.db, this.tableName).newProjectItems(data.project.id, data.project.featureLimit),
      ...data.environments.map((environment) => put({ ...keys.environment(environment.name), ...environment })),
      ...data.contextFields.map((field) => put({ ...keys.contextField(field.name), ...field })),
      ...data.tagTypes.map((type) => put({ ...keys.tagType(type.name), ...type })),
      // No group was ever written here by code that does not move the groups' revision: trusted at once.
      put(freshTableGroupsRevisionItem()),
    ]);
    // A table from before the groups' revision gets it here (ADR 27): on its next `npm start`, or in
    // AWS from the bootstrap resource, which runs only when its properties change; the deployment
    // that brings the revision changes them (DATA_MIGRATIONS.groupsRevision, lib/store/table-design.ts).
    if (!planted) await ensureGroupsRevision(this.db, this.tableName);
    return planted;
  }
}
