import type { ChangeEvent } from '../events/model.js';
import type { PersonalAccessToken, PersonalTokenGrant, StoredPersonalToken } from './model.js';

/** Why a create was refused: the user holds the most tokens allowed, or one with this description. */
export type CreateRefusal = 'limit' | 'description';

/** Personal access tokens: a user's list, and a token found by the hash of its secret. */
export interface PersonalTokenStore {
  /** The user's tokens in id order, each with when it was last seen. */
  listOf(userId: number): Promise<PersonalAccessToken[]>;
  /** Writes the token and its event in one transaction, unless the user is at the limit or has the description. */
  create(token: StoredPersonalToken, limit: number, event: ChangeEvent): Promise<CreateRefusal | undefined>;
  /** Removes one of the user's tokens with its event; false when the user has no token of that id. */
  delete(userId: number, tokenId: number, event: ChangeEvent): Promise<boolean>;
  /** The next token id: ids only grow, as Unleash's do, and a failed create's id is never reused. */
  nextId(): Promise<number>;
  findBySecretHash(secretHash: string): Promise<PersonalTokenGrant | undefined>;
  /** Records the token as seen at `at`, unless it was deleted meanwhile. */
  markSeen(secretHash: string, at: string): Promise<void>;
}
