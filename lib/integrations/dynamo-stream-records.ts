import type { ChangeEvent } from '../events/model.js';
import { KEY } from '../store/table-design.js';

/** The prefix of every change event's partition (keys.event). */
export const EVENT_PARTITION_PREFIX = 'EVENTS#';

/** A stream record as Lambda's DynamoDB event source hands it over, reduced to what is read. */
export interface StreamRecord {
  eventName?: string | undefined;
  dynamodb?: { NewImage?: Record<string, unknown> | undefined } | undefined;
}

/**
 * The change events among a stream batch's records: items newly put in an event partition.
 * The event source mapping's filter already passes only these; the check is kept so that a
 * record of another kind can never be delivered as an event.
 */
export function changeEventsOf(records: readonly StreamRecord[]): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image);
    if (typeof item[KEY.partition] !== 'string' || !(item[KEY.partition] as string).startsWith(EVENT_PARTITION_PREFIX)) continue;
    events.push(toChangeEvent(item));
  }
  return events;
}

/** A written item of an event partition, as the local runtime sees a write go by (marshalled, as a stream carries it). */
export function changeEventsWritten(items: readonly Record<string, unknown>[]): ChangeEvent[] {
  return changeEventsOf(items.map((image) => ({ eventName: 'INSERT', dynamodb: { NewImage: image } })));
}

function toChangeEvent(item: Record<string, unknown>): ChangeEvent {
  const { id, type, createdAt, createdBy, project, featureName, changes } = item as Partial<ChangeEvent>;
  return {
    id: String(id), type: String(type), createdAt: String(createdAt), createdBy: String(createdBy),
    ...(project === undefined ? {} : { project }),
    ...(featureName === undefined ? {} : { featureName }),
    ...(changes === undefined ? {} : { changes: [...changes] }),
  };
}

/** DynamoDB's attribute-value JSON, as a stream record or a request carries it, to plain values. */
function unmarshall(image: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, plain(value)]));
}

function plain(value: unknown): unknown {
  const attribute = value as Record<string, unknown>;
  if ('S' in attribute) return attribute.S;
  if ('N' in attribute) return Number(attribute.N);
  if ('BOOL' in attribute) return attribute.BOOL;
  if ('NULL' in attribute) return null;
  if ('L' in attribute) return (attribute.L as unknown[]).map(plain);
  if ('M' in attribute) return unmarshall(attribute.M as Record<string, unknown>);
  if ('SS' in attribute) return [...(attribute.SS as string[])];
  if ('NS' in attribute) return (attribute.NS as string[]).map(Number);
  return undefined;
}
