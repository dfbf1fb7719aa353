import { admin, defineRoutes } from '../http/route.js';
import { segmentInputSchema, segmentListSchema, segmentNameCheckSchema, segmentSchema, segmentStrategiesSchema } from './schemas.js';


/** Segments: named, reusable constraint lists that strategies refer to by id. */
export const segmentRoutes = defineRoutes('features', {
  listSegments: {
    method: 'GET', path: '/api/admin/segments', access: admin('READ_SEGMENT'), status: 200,
    summary: 'List segments with how many features and projects use each', response: segmentListSchema,
  },
  createSegment: {
    method: 'POST', path: '/api/admin/segments', access: admin('CREATE_SEGMENT'), status: 201,
    summary: 'Create a segment', body: segmentInputSchema, response: segmentSchema,
  },
  validateSegmentName: {
    method: 'POST', path: '/api/admin/segments/validate', access: admin('READ_SEGMENT'), status: 204,
    summary: 'Check that no segment has a name yet (409 when one has)', body: segmentNameCheckSchema,
  },
  getSegment: {
    method: 'GET', path: '/api/admin/segments/{id}', access: admin('READ_SEGMENT'), status: 200,
    summary: 'Get a segment', response: segmentSchema,
  },
  listSegmentStrategies: {
    method: 'GET', path: '/api/admin/segments/{id}/strategies', access: admin('READ_SEGMENT'), status: 200,
    summary: 'List the strategies of features not archived that use a segment', response: segmentStrategiesSchema,
  },
  listStrategySegments: {
    method: 'GET', path: '/api/admin/segments/strategies/{strategyId}', access: admin('READ_SEGMENT'), status: 200,
    summary: 'List the segments a strategy uses (none for an unknown strategy)', response: segmentListSchema,
  },
  updateSegment: {
    method: 'PUT', path: '/api/admin/segments/{id}', access: admin('UPDATE_SEGMENT'), status: 204,
    summary: "Replace a segment's name, description, project and constraints", body: segmentInputSchema,
  },
  deleteSegment: {
    method: 'DELETE', path: '/api/admin/segments/{id}', access: admin('DELETE_SEGMENT'), status: 204,
    summary: 'Delete a segment that no strategy uses',
  },
});
