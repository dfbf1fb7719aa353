import { BODY_LIMITS } from '../limits.js';
import { admin, defineRoutes } from '../http/route.js';
import { exportRequestSchema, exportResultSchema, importRequestSchema, importValidationSchema } from './schemas.js';

/** An export or an import carries many features at once. */
const batch = BODY_LIMITS.batch;

/** Moving features between instances and projects. */
export const transferRoutes = defineRoutes('features', {
  exportFeatures: {
    method: 'POST', path: '/api/admin/features-batch/export', access: admin('READ_FEATURE'), status: 200,
    summary: 'E3. Export features from an environment', body: exportRequestSchema, response: exportResultSchema, maxBodyBytes: batch,
  },
  importFeatures: {
    method: 'POST', path: '/api/admin/features-batch/import', access: admin('CREATE_FEATURE'), status: 200,
    summary: 'Import an export into a project and environment (checks everything before writing anything)',
    body: importRequestSchema, maxBodyBytes: batch,
  },
  validateImport: {
    method: 'POST', path: '/api/admin/features-batch/validate', access: admin('READ_FEATURE'), status: 200,
    summary: 'Check an import without applying it', body: importRequestSchema, response: importValidationSchema, maxBodyBytes: batch,
  },
});
