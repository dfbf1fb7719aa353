import type { ResetToken } from './model.js';

/** The reset token store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface ResetTokenStore {
  insert(token: ResetToken): Promise<void>;
  get(secretHash: string): Promise<ResetToken | undefined>;
  /** Marks the token used, once: false when it was used already, has expired at `now` or is gone. */
  use(secretHash: string, now: Date): Promise<boolean>;
}

/** Whether password login is turned off (Unleash's simple-auth setting); one settings item. */
export interface PasswordLoginStore {
  disabled(): Promise<boolean>;
  setDisabled(disabled: boolean, by: string, at: string): Promise<void>;
}
