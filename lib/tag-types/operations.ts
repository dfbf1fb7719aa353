import type { OperationsFor } from '../http/operation.js';
import type { tagTypeRoutes } from './routes.js';
import type { TagTypeService } from './service.js';

export function tagTypeOperations({ tagTypes }: { tagTypes: TagTypeService }): OperationsFor<typeof tagTypeRoutes> {
  return {
    listTagTypes: async () => ({ body: { version: 1, tagTypes: await tagTypes.list() } }),
    validateTagType: async ({ body }) => ({ body: { valid: true, tagType: await tagTypes.checkNew(body.name, body) } }),
    getTagType: async ({ params }) => ({ body: { version: 1, tagType: await tagTypes.get(params.name) } }),
    createTagType: async ({ body }) => {
      const type = await tagTypes.create(body.name, body);
      return { body: type, headers: { location: `tag-types/${type.name}` } };
    },
    updateTagType: async ({ params, body }) => {
      await tagTypes.update(params.name, body);
      return {};
    },
    deleteTagType: async ({ params }) => {
      await tagTypes.delete(params.name);
      return {};
    },
    listTags: async () => ({ body: { version: 1, tags: await tagTypes.listTags() } }),
    listTagsOfType: async ({ params }) => ({ body: { version: 1, tags: await tagTypes.listTags(params.type) } }),
    createTag: async ({ body }) => {
      const tag = await tagTypes.createTag({ type: body.type, value: body.value });
      return { body: { version: 1, tag }, headers: { location: `tags/${encodeURIComponent(tag.type)}/${encodeURIComponent(tag.value)}` } };
    },
  };
}
