import { admin, defineRoutes } from '../http/route.js';
import { feedbackCreateSchema, feedbackSchema, feedbackUpdateSchema, splashSchema } from './schemas.js';

/**
 * What the admin UI remembers for the person using it; GET /api/admin/user answers it back
 * (lib/auth). Any logged-in person (READ_UI_CONFIG is every root role's); an API token is no
 * person and is refused.
 */
export const userSettingsRoutes = defineRoutes('access', {
  updateSplashSettings: {
    method: 'POST', path: '/api/admin/splash/{splashId}', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'Remember that the caller has seen a splash screen (the welcome dialog among them), so it does not come back', response: splashSchema,
  },
  createFeedback: {
    method: 'POST', path: '/api/admin/feedback', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "Remember the caller's answer to a feedback prompt, given now", body: feedbackCreateSchema, response: feedbackSchema,
  },
  updateFeedback: {
    method: 'PUT', path: '/api/admin/feedback/{feedbackId}', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "Replace the caller's answer to a feedback prompt (neverShow false and given now unless sent)", body: feedbackUpdateSchema, response: feedbackSchema,
  },
});
