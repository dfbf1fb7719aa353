import { ExceedsLimit, ValidationFailed } from '../errors.js';
import { ID_MAX_LENGTH, REMEMBERED_LIMIT, type Feedback, type SplashSeen, type UserUiSettings } from './model.js';
import type { UserSettingsStore } from './store.js';

/**
 * What the admin UI remembers for a person, as Unleash remembers it: the splash screens they
 * closed (the welcome dialog of key concepts among them) and their answers to feedback prompts,
 * so neither comes back in another browser. GET /api/admin/user answers both.
 */
export class UserSettingsService {
  constructor(
    private readonly store: UserSettingsStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  of(userId: number): Promise<UserUiSettings> {
    return this.store.of(userId);
  }

  async markSplashSeen(userId: number, splashId: string): Promise<SplashSeen> {
    checkId('id', splashId);
    this.refuseAtLimit(await this.store.markSplashSeen(userId, splashId, REMEMBERED_LIMIT), 'splash screens');
    return { userId, splashId, seen: true };
  }

  /**
   * Unleash's rules, kept as they are: an answer left without `neverShow` is false, and without
   * `given` is given now (a PUT that sends neither resets the prompt's `neverShow`).
   */
  async giveFeedback(userId: number, feedbackId: string, answer: { neverShow?: boolean | undefined; given?: string | null | undefined }): Promise<Feedback> {
    checkId('feedbackId', feedbackId);
    const feedback: Feedback = {
      userId, feedbackId, neverShow: answer.neverShow ?? false,
      given: answer.given ? new Date(answer.given).toISOString() : this.now().toISOString(),
    };
    this.refuseAtLimit(await this.store.putFeedback(feedback, REMEMBERED_LIMIT), 'feedback answers');
    return feedback;
  }

  private refuseAtLimit(refusal: 'limit' | undefined, what: string): void {
    if (refusal) throw new ExceedsLimit(`A user may have at most ${REMEMBERED_LIMIT} ${what} remembered.`);
  }
}

function checkId(property: string, id: string): void {
  if (id.length > ID_MAX_LENGTH) throw new ValidationFailed(`${property}: at most ${ID_MAX_LENGTH} characters`);
}
