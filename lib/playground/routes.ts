import { admin, defineRoutes } from '../http/route.js';
import { advancedPlaygroundRequestSchema, advancedPlaygroundResponseSchema, playgroundRequestSchema, playgroundResponseSchema } from './schemas.js';

/**
 * The playground: every flag of some projects evaluated for a context, as an SDK would. A POST
 * that changes nothing; at most 15,000 evaluations a request (environments × flags × contexts), and
 * at most 15,000 contexts (the combinations of comma-separated values) whatever the flags.
 */
export const playgroundRoutes = defineRoutes('instance', {
  evaluatePlayground: {
    method: 'POST', path: '/api/admin/playground', access: admin('READ_FEATURE'), status: 200,
    summary: 'Evaluate every flag of the chosen projects (projects: ["a"] or "*") for a context in one environment',
    body: playgroundRequestSchema, response: playgroundResponseSchema,
  },
  evaluateAdvancedPlayground: {
    method: 'POST', path: '/api/admin/playground/advanced', access: admin('READ_FEATURE'), status: 200,
    summary: 'Evaluate for several environments; comma-separated context values are alternatives, each combination evaluated',
    body: advancedPlaygroundRequestSchema, response: advancedPlaygroundResponseSchema,
  },
});
