import { defineSamples } from '../samples.js';
import { userSettingsRoutes } from './routes.js';

/** The sample events call with an admin API token, which is no person: splash and feedback are refused it. */
export const userSettingsSamples = defineSamples(userSettingsRoutes, {
  'splash-seen-as-api-token': { operation: 'updateSplashSettings', params: { splashId: 'personalDashboardKeyConcepts' }, status: 403 },
  'feedback-as-api-token': { operation: 'createFeedback', body: { feedbackId: 'pnps', neverShow: true }, status: 403 },
  'feedback-no-id': { operation: 'createFeedback', body: { neverShow: true }, status: 400 },
  'feedback-update-as-api-token': { operation: 'updateFeedback', params: { feedbackId: 'pnps' }, body: { given: '2026-11-22T03:00:00.000Z' }, status: 403 },
});
