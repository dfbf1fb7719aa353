import type { LoginFailures, ResetToken } from './model.js';

/** The reset token store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface ResetTokenStore {
  /** Keeps the token as its user's one live link, in one transaction: the user's older links end. */
  insert(token: ResetToken): Promise<void>;
  /** The token, with whether it is still its user's live link (`current`). */
  get(secretHash: string): Promise<(ResetToken & { current: boolean }) | undefined>;
  /**
   * Uses the link to set its user's password, in one transaction: the link marked used (while
   * unused and unexpired at `now`), ended as the user's live link, and the password written with
   * the user's sessions and links ended (passwordVersion), only while the password is still the
   * version the link recorded. 'used' when the link was used or expired meanwhile, 'ended' when a
   * newer link or a password change ended it (or the user is gone); then nothing was written.
   */
  useToSetPassword(
    token: Pick<ResetToken, 'secretHash' | 'userId' | 'passwordVersion'>, passwordHash: string, now: Date,
  ): Promise<'done' | 'used' | 'ended'>;
}

/** Failed password logins per login name (its key, lib/auth/model.ts loginNameKey) and client address. */
export interface LoginFailureStore {
  /** The count as stored, ended or not (the caller compares `expiresAt` with its clock). */
  get(loginKey: string, address: string): Promise<LoginFailures | undefined>;
  /**
   * Replaces the count read (`read`, undefined when there was none) with `next`: false when
   * another try changed it meanwhile.
   */
  replace(loginKey: string, address: string, read: LoginFailures | undefined, next: LoginFailures): Promise<boolean>;
  /** The right password went in from this address. */
  forget(loginKey: string, address: string): Promise<void>;
}

/** Whether password login is turned off (Unleash's simple-auth setting); one settings item. */
export interface PasswordLoginStore {
  disabled(): Promise<boolean>;
  setDisabled(disabled: boolean, by: string, at: string): Promise<void>;
}
