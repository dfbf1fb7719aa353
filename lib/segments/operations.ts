import type { OperationsFor } from '../http/operation.js';
import type { segmentRoutes } from './routes.js';
import type { SegmentService } from './service.js';
import { toSegmentWire } from './wire.js';

export function segmentOperations({ segments }: { segments: SegmentService }): OperationsFor<typeof segmentRoutes> {
  return {
    listSegments: async () => ({ body: { segments: (await segments.listWithUsage()).map(toSegmentWire) } }),
    validateSegmentName: async ({ body }) => {
      await segments.checkNewName(body.name);
      return {};
    },
    getSegment: async ({ params }) => ({ body: toSegmentWire(await segments.get(params.id)) }),
    listSegmentStrategies: async ({ params }) => ({
      body: { strategies: await segments.strategiesUsing(params.id), changeRequestStrategies: [] },
    }),
    listStrategySegments: async ({ params }) => ({ body: { segments: (await segments.usedBy(params.strategyId)).map(toSegmentWire) } }),
    createSegment: async ({ body, caller }) => {
      const segment = await segments.create(body, caller.tokenName);
      return { body: toSegmentWire(segment), headers: { location: `segments/${segment.id}` } };
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
