import type { ResetToken } from './model.js';

/** The reset token store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface ResetTokenStore {
  insert(token: ResetToken): Promise<void>;
  get(secretHash: string): Promise<ResetToken | undefined>;
  /** Marks the token used, once: false when it was used already, has expired at `now` or is gone. */
  use(secretHash: string, now: Date): Promise<boolean>;
}
