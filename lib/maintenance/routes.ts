import { admin, defineRoutes } from '../http/route.js';
import { maintenanceSchema } from './schemas.js';

/** Maintenance mode (Admin settings → Maintenance): admins only, as in Unleash. */
export const maintenanceRoutes = defineRoutes('instance', {
  getMaintenance: {
    method: 'GET', path: '/api/admin/maintenance', access: admin('ADMIN'), status: 200,
    summary: 'Whether maintenance mode is on, as stored', response: maintenanceSchema,
  },
  toggleMaintenance: {
    method: 'POST', path: '/api/admin/maintenance', access: admin('ADMIN'), status: 204,
    summary: 'Turn maintenance mode on or off: while on, every change to the admin API but this one answers 503; reads, logins and the SDKs keep working',
    body: maintenanceSchema,
  },
});
