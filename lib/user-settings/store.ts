import type { Feedback, UserUiSettings } from './model.js';

/** Why a write was refused: the person already has the most ids remembered. */
export type RememberRefusal = 'limit';

export interface UserSettingsStore {
  of(userId: number): Promise<UserUiSettings>;
  /** Remembers the splash as seen; a splash seen before is left as it is. */
  markSplashSeen(userId: number, splashId: string, limit: number): Promise<RememberRefusal | undefined>;
  /** Stores the answer, replacing an earlier answer to the same prompt. */
  putFeedback(feedback: Feedback, limit: number): Promise<RememberRefusal | undefined>;
}
