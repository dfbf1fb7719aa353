import { BODY_LIMITS } from '../../limits.js';
import { route, type RouteSpec } from '../route-types.js';
import { exportRequestSchema, exportResultSchema, importRequestSchema, importValidationSchema } from '../schemas/export-import.js';

const admin = (permission: string) => ({ kind: 'admin', permission }) as const;
/** An export or an import carries many features at once. */
const batch = BODY_LIMITS.batch;

/** Moving features between instances and projects. */
export const exportImportRoutes = {
  exportFeatures: route({
    method: 'POST', path: '/api/admin/features-batch/export', group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'E3. Export features from an environment', body: exportRequestSchema, response: exportResultSchema, maxBodyBytes: batch,
  }),
  importFeatures: route({
    method: 'POST', path: '/api/admin/features-batch/import', group: 'features', access: admin('CREATE_FEATURE'), status: 200,
    summary: 'Import an export into a project and environment (checks everything before writing anything)',
    body: importRequestSchema, maxBodyBytes: batch,
  }),
  validateImport: route({
    method: 'POST', path: '/api/admin/features-batch/validate', group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'Check an import without applying it', body: importRequestSchema, response: importValidationSchema, maxBodyBytes: batch,
  }),
} as const satisfies Record<string, RouteSpec>;
