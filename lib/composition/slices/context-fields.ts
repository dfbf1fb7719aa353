import type { ContextFieldPorts } from '../../context-fields/ports.js';
import { contextFieldSlice } from '../../context-fields/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { projectOf } from './catalog-reads.js';

/** The context fields' slice, once per composition, on its ports. */
export const contextFields = (c: Composition) => contextFieldSlice(c, contextFieldPorts(c));

/** What context fields read: every feature from the admin read model, and whether a project exists. */
function contextFieldPorts(c: Composition): ContextFieldPorts {
  return {
    everyFeature: () => c.once(featureReadModel).everyFeature(),
    checkProjectExists: async (id) => void (await projectOf(c, id)),
  };
}
