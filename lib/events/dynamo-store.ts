import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeEvent } from './model.js';
import type { EventReader } from './store.js';
import { keys } from '../store/table-design.js';
import type { TransactWriteItem } from '../store/transact.js';

/** The transaction item that records an event alongside the change it tells of. */
export function eventItem(tableName: string, event: ChangeEvent): TransactWriteItem {
  return { Put: { TableName: tableName, Item: { ...keys.event(event.createdAt, event.id), ...event } } };
}

export class DynamoEventStore implements EventReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async between(from: Date, to: Date): Promise<ChangeEvent[]> {
    const events: ChangeEvent[] = [];
    for (const month of monthsBetween(from, to)) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': keys.eventsOfMonth(month).pk,
              ':from': from.toISOString(),
              // Sort keys are `<time>#<id>`, so every event before `to` sorts below the bare time.
              ':to': to.toISOString(),
            },
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const { pk: _pk, sk: _sk, ...event } = item;
          events.push(event as ChangeEvent);
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    return events;
  }
}

/** `yyyy-mm` of every month that overlaps [from, to]. */
function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  const cursor = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
  while (cursor <= to) {
    months.push(cursor.toISOString().slice(0, 7));
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return months;
}
