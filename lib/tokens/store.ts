import type { ApiToken } from './model.js';

/** The token store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface ApiTokenStore {
  findByHash(secretHash: string): Promise<ApiToken | undefined>;
  findById(tokenId: string): Promise<ApiToken | undefined>;
  list(): Promise<ApiToken[]>;
  /** Writes the token unless one with the same secret exists; answers whether it wrote. */
  insert(token: ApiToken): Promise<boolean>;
  delete(secretHash: string): Promise<void>;
}
