import { createDocumentClient } from './document-client.js';
import { countRequests, type RequestCounter } from './request-counter.js';
import { DynamoRevisionStore } from './revision-store.js';

/** The one DynamoDB connection of a process, its request counter and the revision item. */
export interface StoreContext {
  db: ReturnType<typeof createDocumentClient>;
  tableName: string;
  revisions: DynamoRevisionStore;
  /** Every DynamoDB request this process sends, by operation (tests and `npm run bench` read it). */
  dynamoRequests: RequestCounter;
}

/** Where the table is: the configuration's region, endpoint (the local engine) and table name. */
export interface StoreLocation {
  region: string;
  dynamodbEndpoint?: string | undefined;
  dynamodbAccessKeyId?: string | undefined;
  tableName: string;
}

export function connectStore(config: StoreLocation): StoreContext {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint, accessKeyId: config.dynamodbAccessKeyId });
  return { db, tableName: config.tableName, dynamoRequests: countRequests(db), revisions: new DynamoRevisionStore(db, config.tableName) };
}
