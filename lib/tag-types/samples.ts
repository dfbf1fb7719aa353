import { defineSamples } from '../samples.js';
import { tagTypeRoutes } from './routes.js';

export const tagTypeSamples = defineSamples(tagTypeRoutes, {
  'create-tag-type': {
    operation: 'createTagType',
    body: { name: 'sample-team-{{UNIQUE}}', description: 'The owning team', icon: 'group' },
    status: 201,
  },
  'list-tag-types': { operation: 'listTagTypes', status: 200 },
  'validate-tag-type': { operation: 'validateTagType', body: { name: 'sample-unused-{{UNIQUE}}' }, status: 200 },
  'get-tag-type': {
    operation: 'getTagType',
    params: { name: 'sample-team-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-tag-type'],
  },
  'update-tag-type': {
    operation: 'updateTagType',
    params: { name: 'sample-team-{{UNIQUE}}' },
    body: { description: 'The team that owns the feature', icon: 'groups' },
    status: 200,
    given: ['features/create-tag-type'],
  },
  'delete-tag-type': {
    operation: 'deleteTagType',
    params: { name: 'sample-team-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-tag-type'],
  },
  'create-tag': { operation: 'createTag', body: { type: 'simple', value: 'sample-{{UNIQUE}}' }, status: 201 },
  'list-all-tags': { operation: 'listTags', status: 200, given: ['features/create-tag'] },
  'list-tags-of-type': { operation: 'listTagsOfType', params: { type: 'simple' }, status: 200, given: ['features/create-tag'] },
});
