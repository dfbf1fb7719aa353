/** A splash screen a person has seen (Unleash's splashResponseSchema). */
export interface SplashSeen {
  userId: number;
  splashId: string;
  seen: boolean;
}

/** A person's answer to a feedback prompt (Unleash's feedbackResponseSchema). */
export interface Feedback {
  userId: number;
  feedbackId: string;
  neverShow: boolean;
  given: string | null;
}

/** What the admin UI remembers for a person, as GET /api/admin/user answers it. */
export interface UserUiSettings {
  splash: Record<string, boolean>;
  feedback: Feedback[];
}

/**
 * The most splash screens and feedback prompts remembered per person. The admin UI has a handful
 * of each; the bound keeps a script that posts made-up ids from growing one person's item forever.
 */
export const REMEMBERED_LIMIT = 100;

/** The longest splash or feedback id kept (the UI's are short names). */
export const ID_MAX_LENGTH = 100;
