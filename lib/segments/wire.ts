import type { Segment } from './model.js';
import type { SegmentWire } from './schemas.js';

export function toSegmentWire(segment: Segment & { usedInFeatures?: number; usedInProjects?: number }): SegmentWire {
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
