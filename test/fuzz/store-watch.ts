import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';

/** DynamoDB operations that change a table when they succeed. */
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** `UpdateItem COUNTERS`: the operation and, for one-item writes, the partition it wrote. */
function describe(operation: string, body: Buffer): string {
  try {
    const input = JSON.parse(body.toString('utf8')) as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
    const pk = input.Key?.pk?.S ?? input.Item?.pk?.S;
    return pk ? `${operation} ${pk}` : operation;
  } catch {
    return operation;
  }
}

/** The IAM actions a request needs: a transaction needs the action of each of its items. */
function iamActionsOf(operation: string, body: Buffer): string[] {
  if (operation !== 'TransactWriteItems' && operation !== 'TransactGetItems') return [`dynamodb:${operation}`];
  const ITEM_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
  try {
    const items = (JSON.parse(body.toString('utf8')) as { TransactItems?: Array<Record<string, unknown>> }).TransactItems ?? [];
    return [...new Set(items.flatMap((item) => Object.keys(item).map((kind) => `dynamodb:${ITEM_ACTIONS[kind] ?? kind}`)))];
  } catch {
    return [`dynamodb:${operation}`];
  }
}

export interface WriteWatch {
  /** The endpoint to hand the services instead of the engine's. */
  endpoint: string;
  /** DynamoDB requests the services sent so far, by operation. */
  requests(): Record<string, number>;
  /** Successful writes since the last call, e.g. `PutItem FEATURES`, and forgets them. */
  takeWrites(): string[];
  /** IAM actions of every request since the last call (`dynamodb:GetItem` …), and forgets them. */
  takeActions(): Set<string>;
  close(): Promise<void>;
}

/**
 * A pass-through proxy in front of DynamoDB Local that notes every write the engine accepted
 * (status 200). A rejected request that caused one changed the store, whichever item it was:
 * this sees the whole table without scanning it after each of thousands of requests.
 */
export async function watchWrites(engineEndpoint: string): Promise<WriteWatch> {
  const target = new URL(engineEndpoint);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let writes: string[] = [];
  let actions = new Set<string>();
  const byOperation = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      for (const action of iamActionsOf(operation, body)) actions.add(action);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          if (WRITES.has(operation) && answer.statusCode === 200) writes.push(describe(operation, body));
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => Object.fromEntries(byOperation),
    takeActions: () => {
      const taken = actions;
      actions = new Set();
      return taken;
    },
    takeWrites: () => {
      const taken = writes;
      writes = [];
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What SDKs see, read directly from the engine: the revision, which every change visible
 * to SDKs moves in its own transaction. A second, independent witness next to the write watch
 * (which sees every item, but only through this process's proxy).
 */
export function revisionReader(engineEndpoint: string, tableName: string): () => Promise<string> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'local', endpoint: engineEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const revisions = new DynamoRevisionStore(db, tableName);
  return async () => JSON.stringify(await revisions.read());
}
