import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RevisionState } from '../revision.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';

/**
 * Where browsers may call the Frontend API from (CORS), as Unleash keeps it: the list set through
 * `POST /api/admin/ui-config/cors` when one was set, else `UNLEASH_FRONTEND_API_ORIGINS`, else
 * `*`. Setting the list moves the token-change counter (who may fetch changed, not what is
 * served), so every instance reads the list again within its revision-check interval and no
 * instance reads it otherwise: no DynamoDB request of its own on the Frontend API's path.
 */
export class FrontendOrigins {
  private known: { tokenChanges: number; origins: Promise<string[]> } | undefined;
  /** The list as last read successfully: what a request is answered with while DynamoDB fails. */
  private lastRead: string[] | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: Pick<DynamoRevisionStore, 'commitTokenChange'>,
    private readonly clock: { state(): Promise<RevisionState> },
    /** UNLEASH_FRONTEND_API_ORIGINS: the list until one is set through the admin API. */
    private readonly configured: readonly string[],
  ) {}

  /**
   * The allowed origins; while the revision or the list cannot be read (an outage, a throttle),
   * the list last read, or undefined when this instance has never read one: then no CORS header
   * is sent, as for an origin not allowed, rather than guess a list more open than the stored one.
   */
  async allowed(): Promise<string[] | undefined> {
    try {
      const { tokenChanges } = await this.clock.state();
      if (this.known?.tokenChanges !== tokenChanges) {
        const origins = this.read();
        // A failed read is not kept: the next request reads again.
        origins.catch(() => (this.known = undefined));
        this.known = { tokenChanges, origins };
      }
      this.lastRead = await this.known.origins;
      return this.lastRead;
    } catch {
      return this.lastRead;
    }
  }

  /** The list itself, as `/api/admin/ui-config` shows it. */
  async read(): Promise<string[]> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.frontendSettings(), ConsistentRead: true }));
    const stored = Item?.frontendApiOrigins as string[] | undefined;
    return stored ?? (this.configured.length > 0 ? [...this.configured] : ['*']);
  }

  async set(origins: string[]): Promise<void> {
    await this.revisions.commitTokenChange([
      { Put: { TableName: this.tableName, Item: { ...keys.frontendSettings(), frontendApiOrigins: [...new Set(origins)] } } },
    ]);
  }
}

/** What `Access-Control-Allow-Origin` says to a request from `origin`; undefined: no CORS headers at all. */
export function allowedOrigin(origin: string | undefined, allowed: readonly string[] | undefined): string | undefined {
  if (allowed === undefined) return undefined;
  if (allowed.length === 0 || allowed.includes('*')) return '*';
  return origin !== undefined && allowed.includes(origin) ? origin : undefined;
}
