import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { unique } from './services.js';

/** A flag as a team would have it: one strategy with a constraint in production, one variant. */
export function flag(name: string): Feature {
  return {
    name, project: 'default', type: 'release', description: `The ${name} flag`, impressionData: false, stale: false,
    archived: false, archivedAt: null, createdAt: '2026-11-01T00:00:00.000Z', tags: [], dependencies: [], children: [], version: 1,
    environments: {
      production: {
        enabled: true,
        strategies: [{
          id: `${name}-strategy`, name: 'flexibleRollout', title: null, disabled: false, sortOrder: 0, segments: [], variants: [],
          parameters: { rollout: '50', stickiness: 'default', groupId: name },
          constraints: [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios', 'android'], caseInsensitive: false, inverted: false }],
        }],
        variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'blue' } }],
      },
    },
  } as unknown as Feature;
}

/** The name of flag `index` in a table from `tableWith`. */
export const flagName = (index: number): string => `flag-${String(index).padStart(6, '0')}`;

/**
 * A table of its own holding `count` flags, written straight to DynamoDB Local 25 at a time
 * (without moving the revision: a test's first change gives containers a reading to resume from).
 */
export async function tableWith(count: number): Promise<string> {
  const tableName = unique('scale');
  const local = createDocumentClient({ region: 'local', endpoint: inject('dynamodbLocal').endpoint });
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodbLocal').endpoint }, tableName);
  const names = Array.from({ length: count }, (_, i) => flagName(i));
  for (let start = 0; start < names.length; start += 25) {
    const puts = names.slice(start, start + 25).map((name) => ({ PutRequest: { Item: { ...keys.feature(name), ...flag(name) } } }));
    let pending: typeof puts | undefined = puts;
    while (pending && pending.length > 0) {
      const answer = await local.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = answer.UnprocessedItems?.[tableName] as typeof puts | undefined;
    }
  }
  local.destroy();
  return tableName;
}
