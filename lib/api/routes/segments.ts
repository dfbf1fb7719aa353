import { route, type RouteSpec } from '../route-types.js';
import { segmentInputSchema, segmentListSchema, segmentSchema } from '../schemas/segments.js';

const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** Segments: named, reusable constraint lists that strategies refer to by id. */
export const segmentRoutes = {
  listSegments: route({
    method: 'GET', path: '/api/admin/segments', group: 'features', access: admin('READ_SEGMENT'), status: 200,
    summary: 'List segments with how many features and projects use each', response: segmentListSchema,
  }),
  createSegment: route({
    method: 'POST', path: '/api/admin/segments', group: 'features', access: admin('CREATE_SEGMENT'), status: 201,
    summary: 'Create a segment', body: segmentInputSchema, response: segmentSchema,
  }),
  getSegment: route({
    method: 'GET', path: '/api/admin/segments/{id}', group: 'features', access: admin('READ_SEGMENT'), status: 200,
    summary: 'Get a segment', response: segmentSchema,
  }),
  updateSegment: route({
    method: 'PUT', path: '/api/admin/segments/{id}', group: 'features', access: admin('UPDATE_SEGMENT'), status: 204,
    summary: "Replace a segment's name, description, project and constraints", body: segmentInputSchema,
  }),
  deleteSegment: route({
    method: 'DELETE', path: '/api/admin/segments/{id}', group: 'features', access: admin('DELETE_SEGMENT'), status: 204,
    summary: 'Delete a segment that no strategy uses',
  }),
} as const satisfies Record<string, RouteSpec>;
