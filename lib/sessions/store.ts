import type { Session } from './model.js';

/** The session store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface SessionStore {
  /** With `idToken` (a single sign-on login), the token's item is written first, then the session. */
  insert(session: Session, idToken?: string): Promise<void>;
  /** The ID token of a single sign-on session, if still kept. */
  idTokenOf(userId: number, secretHash: string): Promise<string | undefined>;
  /** The session of this user with this secret hash, ended or not (the caller checks `expiresAt`). */
  get(userId: number, secretHash: string): Promise<Session | undefined>;
  /** Ends one session (and its ID token): logout. */
  delete(userId: number, secretHash: string): Promise<void>;
  /** Ends every session of the user (and their ID tokens). */
  deleteAllOf(userId: number): Promise<void>;
}
