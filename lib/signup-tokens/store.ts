import type { SignupToken } from './model.js';

export interface SignupTokenChanges {
  enabled?: boolean | undefined;
  expiresAt?: string | undefined;
}

/** The signup token store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface SignupTokenStore {
  list(): Promise<SignupToken[]>;
  get(secret: string): Promise<SignupToken | undefined>;
  /** Answers false when the secret is taken (never in practice: 128 random bits). */
  insert(token: SignupToken): Promise<boolean>;
  /** Sets the given fields of an existing token; undefined when there is none. */
  update(secret: string, changes: SignupTokenChanges): Promise<SignupToken | undefined>;
}
