import { admin, defineRoutes } from '../http/route.js';
import { tagListSchema, tagSchema } from '../features/schemas.js';
import {
  tagCreatedSchema,
  tagTypeCreateSchema,
  tagTypeListSchema,
  tagTypeOneSchema,
  tagTypeSchema,
  tagTypeUpdateSchema,
  tagTypeValidationSchema,
} from './schemas.js';


/** Tag types: the kinds of tags features carry (`simple` from the first start); and the tags in use. */
export const tagTypeRoutes = defineRoutes('features', {
  listTagTypes: {
    method: 'GET', path: '/api/admin/tag-types', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'List tag types', response: tagTypeListSchema,
  },
  validateTagType: {
    method: 'POST', path: '/api/admin/tag-types/validate', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'Check a new tag type as creating it would (409 when the name is taken)', body: tagTypeCreateSchema, response: tagTypeValidationSchema,
  },
  getTagType: {
    method: 'GET', path: '/api/admin/tag-types/{name}', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'Get a tag type', response: tagTypeOneSchema,
  },
  createTagType: {
    method: 'POST', path: '/api/admin/tag-types', access: admin('CREATE_TAG_TYPE'), status: 201,
    summary: 'Create a tag type', body: tagTypeCreateSchema, response: tagTypeSchema,
  },
  updateTagType: {
    method: 'PUT', path: '/api/admin/tag-types/{name}', access: admin('UPDATE_TAG_TYPE'), status: 200,
    summary: "Change a tag type's description and icon", body: tagTypeUpdateSchema,
  },
  deleteTagType: {
    method: 'DELETE', path: '/api/admin/tag-types/{name}', access: admin('DELETE_TAG_TYPE'), status: 200,
    summary: 'Delete a tag type',
  },
  listTags: {
    method: 'GET', path: '/api/admin/tags', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'List the tags created or put on features', response: tagListSchema,
  },
  listTagsOfType: {
    method: 'GET', path: '/api/admin/tags/{type}', access: admin('READ_TAG_TYPE'), status: 200,
    summary: 'List the tags of one type (none for a type that does not exist)', response: tagListSchema,
  },
  createTag: {
    method: 'POST', path: '/api/admin/tags', access: admin('UPDATE_FEATURE'), status: 201,
    summary: 'Create a tag of a type that exists (the admin UI does before it puts a new one on a feature)',
    body: tagSchema, response: tagCreatedSchema,
  },
});
