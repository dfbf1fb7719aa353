import { route, type RouteSpec } from '../route-types.js';
import { tagTypeCreateSchema, tagTypeListSchema, tagTypeOneSchema, tagTypeSchema, tagTypeUpdateSchema } from '../schemas/tag-types.js';

const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** Tag types: the kinds of tags features carry (`simple` from the first start). */
export const tagTypeRoutes = {
  listTagTypes: route({
    method: 'GET', path: '/api/admin/tag-types', group: 'features', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'List tag types', response: tagTypeListSchema,
  }),
  getTagType: route({
    method: 'GET', path: '/api/admin/tag-types/{name}', group: 'features', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'Get a tag type', response: tagTypeOneSchema,
  }),
  createTagType: route({
    method: 'POST', path: '/api/admin/tag-types', group: 'features', access: admin('CREATE_TAG_TYPE'), status: 201,
    summary: 'Create a tag type', body: tagTypeCreateSchema, response: tagTypeSchema,
  }),
  updateTagType: route({
    method: 'PUT', path: '/api/admin/tag-types/{name}', group: 'features', access: admin('UPDATE_TAG_TYPE'), status: 200,
    summary: "Change a tag type's description and icon", body: tagTypeUpdateSchema,
  }),
  deleteTagType: route({
    method: 'DELETE', path: '/api/admin/tag-types/{name}', group: 'features', access: admin('DELETE_TAG_TYPE'), status: 200,
    summary: 'Delete a tag type',
  }),
} as const satisfies Record<string, RouteSpec>;
