import type { OperationsFor } from '../http/operation.js';
import type { Services } from '../composition/services.js';
import type { Segment } from './model.js';
import type { segmentRoutes } from './routes.js';
import type { SegmentWire } from './schemas.js';

export function segmentOperations({ segments }: Services): OperationsFor<typeof segmentRoutes> {
  return {
    listSegments: async () => ({ body: { segments: (await segments.listWithUsage()).map(segmentWire) } }),
    getSegment: async ({ params }) => ({ body: segmentWire(await segments.get(params.id)) }),
    createSegment: async ({ body, caller }) => {
      const segment = await segments.create(body, caller.tokenName);
      return { body: segmentWire(segment), headers: { location: `segments/${segment.id}` } };
    },
    updateSegment: async ({ params, body }) => {
      await segments.update(params.id, body);
      return {};
    },
    deleteSegment: async ({ params }) => {
      await segments.delete(params.id);
      return {};
    },
  };
}

function segmentWire(segment: Segment & { usedInFeatures?: number; usedInProjects?: number }): SegmentWire {
  return {
    id: segment.id,
    name: segment.name,
    description: segment.description,
    project: segment.project,
    constraints: segment.constraints,
    createdAt: segment.createdAt,
    createdBy: segment.createdBy,
    ...(segment.usedInFeatures === undefined ? {} : { usedInFeatures: segment.usedInFeatures, usedInProjects: segment.usedInProjects }),
  };
}
