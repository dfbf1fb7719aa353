import type { contextFieldRoutes } from '../../lib/api/routes/context-fields.js';
import type { segmentRoutes } from '../../lib/api/routes/segments.js';
import type { tagTypeRoutes } from '../../lib/api/routes/tag-types.js';
import type { SegmentWire } from '../../lib/api/schemas/segments.js';
import type { ContextField } from '../../lib/context-fields/model.js';
import { ValidationFailed } from '../../lib/errors.js';
import type { OperationsFor } from '../../lib/http/operation.js';
import type { Segment } from '../../lib/segments/model.js';
import type { Services } from '../../lib/services.js';

type CatalogRoutes = typeof segmentRoutes & typeof contextFieldRoutes & typeof tagTypeRoutes;

/** The catalogues features draw on: segments, context fields and tag types. */
export const defineCatalogOperations = (services: Services): OperationsFor<CatalogRoutes> => ({
  ...segmentOperations(services),
  ...contextFieldOperations(services),
  ...tagTypeOperations(services),
});

function segmentOperations({ segments }: Services): OperationsFor<typeof segmentRoutes> {
  return {
    listSegments: async () => ({ body: { segments: (await segments.listWithUsage()).map(segmentWire) } }),
    getSegment: async ({ params }) => ({ body: segmentWire(await segments.get(segmentId(params.id))) }),
    createSegment: async ({ body, caller }) => {
      const segment = await segments.create(body, caller.tokenName);
      return { body: segmentWire(segment), headers: { location: `segments/${segment.id}` } };
    },
    updateSegment: async ({ params, body }) => {
      await segments.update(segmentId(params.id), body);
      return {};
    },
    deleteSegment: async ({ params }) => {
      await segments.delete(segmentId(params.id));
      return {};
    },
  };
}

function contextFieldOperations({ contextFields }: Services): OperationsFor<typeof contextFieldRoutes> {
  return {
    listContextFields: async () => ({ body: (await contextFields.list()).map(contextFieldWire) }),
    getContextField: async ({ params }) => ({ body: contextFieldWire(await contextFields.get(params.name)) }),
    createContextField: async ({ body }) => {
      const field = await contextFields.create(body);
      return { body: contextFieldWire(field), headers: { location: `context/${field.name}` } };
    },
    updateContextField: async ({ params, body }) => {
      await contextFields.update(params.name, body);
      return {};
    },
    deleteContextField: async ({ params }) => {
      await contextFields.delete(params.name);
      return {};
    },
  };
}

function tagTypeOperations({ tagTypes }: Services): OperationsFor<typeof tagTypeRoutes> {
  return {
    listTagTypes: async () => ({ body: { version: 1, tagTypes: await tagTypes.list() } }),
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
  };
}

/** Segment ids are positive integers; anything else in the path is a bad request, not a miss. */
function segmentId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw new ValidationFailed(`id: must be a positive whole number (got ${raw})`);
  return Number(raw);
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

function contextFieldWire(field: ContextField) {
  return {
    name: field.name,
    description: field.description,
    stickiness: field.stickiness,
    sortOrder: field.sortOrder,
    legalValues: field.legalValues,
    createdAt: field.createdAt,
  };
}
