import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { prepareLocalTable } from '../../../lib/store/create-table.js';
import { createDocumentClient } from '../../../lib/store/document-client.js';

/** One connection for every fresh table of a test file. */
let connection: ReturnType<typeof createDocumentClient> | undefined;

/**
 * A new, empty table on the run's DynamoDB Local, for a contract case on an adapter: the
 * collections the ports list are single partitions, so each case needs a table of its own to
 * see only what it wrote (the run's shared table is seeded and written by every other test).
 */
export async function freshTable(): Promise<{ db: ReturnType<typeof createDocumentClient>; tableName: string }> {
  const { endpoint } = inject('dynamodb');
  const tableName = `contract-${randomUUID().slice(0, 8)}`;
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  connection ??= createDocumentClient({ region: 'local', endpoint });
  return { db: connection, tableName };
}
