import * as z from 'zod';

/** Unleash's maintenanceSchema (the answer) and toggleMaintenanceSchema (the request): the same shape. */
export const maintenanceSchema = z.object({ enabled: z.boolean() });
