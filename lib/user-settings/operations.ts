import { PermissionDenied } from '../errors.js';
import type { OperationsFor } from '../http/operation.js';
import { isUserCaller } from '../sessions/model.js';
import type { Caller } from '../tokens/model.js';
import type { userSettingsRoutes } from './routes.js';
import type { UserSettingsService } from './service.js';

/** Only a person has splash screens and feedback; Unleash fails an API token's feedback with a 500. */
function userIdOf(caller: Caller): number {
  if (!isUserCaller(caller)) {
    throw new PermissionDenied('READ_UI_CONFIG', 'Splash screens and feedback are remembered per user: log in, or use a personal access token.');
  }
  return caller.userId;
}

export function userSettingsOperations({ userSettings }: { userSettings: UserSettingsService }): OperationsFor<typeof userSettingsRoutes> {
  return {
    updateSplashSettings: async ({ caller, params }) => ({ body: await userSettings.markSplashSeen(userIdOf(caller), params.splashId) }),
    createFeedback: async ({ caller, body }) => ({
      // A new answer is given now, as Unleash records it, whatever `given` says.
      body: await userSettings.giveFeedback(userIdOf(caller), body.feedbackId, { neverShow: body.neverShow }),
    }),
    updateFeedback: async ({ caller, params, body }) => ({ body: await userSettings.giveFeedback(userIdOf(caller), params.feedbackId, body) }),
  };
}
