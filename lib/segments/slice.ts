import type { Slice, SliceContext } from '../slice.js';
import { DynamoSegmentStore } from './dynamo-store.js';
import { segmentOperations } from './operations.js';
import type { SegmentPorts } from './ports.js';
import { segmentRoutes } from './routes.js';
import { SegmentService } from './service.js';

/** Segments: named constraint sets strategies share (§6.6). */
export function segmentSlice({ store }: SliceContext, { projectExists, allFeatures, everyFeature }: SegmentPorts) {
  const segments = new SegmentService(
    new DynamoSegmentStore(store.db, store.tableName, store.revisions), { projectExists }, { listAll: allFeatures }, everyFeature,
  );
  return {
    routes: segmentRoutes,
    operations: segmentOperations({ segments }),
    segments,
  } satisfies Slice<typeof segmentRoutes> & Record<string, unknown>;
}
