import { admin, defineRoutes } from '../http/route.js';
import { unknownFlagsResponseSchema } from './schemas.js';

/** The names SDKs report that are no flag (the admin UI's Unknown flags page); every signed-in user may read them, as in Unleash. */
export const unknownFlagRoutes = defineRoutes('instance', {
  listUnknownFlags: {
    method: 'GET', path: '/api/admin/metrics/unknown-flags', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'Names SDKs reported evaluating in the last 24 hours that are no flag, by name (at most 1,000), with who reported them where and when',
    response: unknownFlagsResponseSchema,
  },
});
