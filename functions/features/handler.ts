import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { contextFields } from '../../lib/composition/slices/context-fields.js';
import { features } from '../../lib/composition/slices/features.js';
import { segments } from '../../lib/composition/slices/segments.js';
import { tagTypes } from '../../lib/composition/slices/tag-types.js';
import { transfer } from '../../lib/composition/slices/transfer.js';

/** Features with their strategies, variants and relations; the catalogues they draw on; export and import. */
export const definition: FunctionDefinition = {
  group: 'features',
  compose: (c) => ({
    features: c.once(features),
    segments: c.once(segments),
    contextFields: c.once(contextFields),
    tagTypes: c.once(tagTypes),
    transfer: c.once(transfer),
  }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
