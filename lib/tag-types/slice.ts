import type { Slice, SliceContext } from '../slice.js';
import { DynamoTagStore, DynamoTagTypeStore } from './dynamo-store.js';
import { tagTypeOperations } from './operations.js';
import type { TagTypePorts } from './ports.js';
import { tagTypeRoutes } from './routes.js';
import { TagTypeService } from './service.js';

/** Tag types and the tags created or put on features. */
export function tagTypeSlice({ store }: SliceContext, _ports: TagTypePorts) {
  const tagTypes = new TagTypeService(new DynamoTagTypeStore(store.db, store.tableName), new DynamoTagStore(store.db, store.tableName));
  return {
    routes: tagTypeRoutes,
    operations: tagTypeOperations({ tagTypes }),
    tagTypes,
  } satisfies Slice<typeof tagTypeRoutes> & Record<string, unknown>;
}
