import type { Session } from './model.js';

/** The session store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface SessionStore {
  insert(session: Session): Promise<void>;
  /** The session of this user with this secret hash, ended or not (the caller checks `expiresAt`). */
  get(userId: number, secretHash: string): Promise<Session | undefined>;
  delete(userId: number, secretHash: string): Promise<void>;
  /** Ends every session of the user: logout, a changed or reset password. */
  deleteAllOf(userId: number): Promise<void>;
}
