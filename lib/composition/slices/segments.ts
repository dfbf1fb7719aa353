import type { SegmentPorts } from '../../segments/ports.js';
import { segmentSlice } from '../../segments/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { featureStore, projectStore } from '../stores.js';

/** The segments' slice, once per composition, on its ports. */
export const segments = (c: Composition) => segmentSlice(c, segmentPorts(c));

/** What segments read: whether a project exists, every feature from the table and from the admin read model. */
function segmentPorts(c: Composition): SegmentPorts {
  return {
    projectExists: async (id) => (await c.once(projectStore).get(id)) !== undefined,
    allFeatures: () => c.once(featureStore).listAll(),
    everyFeature: () => c.once(featureReadModel).everyFeature(),
  };
}
