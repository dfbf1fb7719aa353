import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { RouteSpec } from './route.js';

/** Maintenance mode as the edge asks it (lib/maintenance/service.ts): throws while changes are refused. */
export interface MaintenanceGate {
  refuseChanges(): Promise<void>;
}

const CHANGES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Which routes maintenance mode refuses: changes to the admin API. Unleash refuses POST, PUT and
 * DELETE under /api/admin; PATCH changes as much, so it is refused too. The maintenance toggle
 * stays open, or nobody could turn it off. Logins, logout, invite signups and the SDK, Frontend,
 * OFREP and Edge routes are outside /api/admin and keep working, as every read does.
 */
export function refusedInMaintenance(spec: Pick<RouteSpec, 'method' | 'path'>): boolean {
  return CHANGES.has(spec.method) && spec.path.startsWith('/api/admin/') && !spec.path.includes('/maintenance');
}

/** After authorization, as in Unleash: an anonymous change still gets its 401. */
export const maintenanceCheck = (gate: MaintenanceGate): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: () => gate.refuseChanges(),
});
