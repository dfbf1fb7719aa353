import type { TransferCatalog, TransferPorts } from '../../transfer/ports.js';
import { transferSlice } from '../../transfer/slice.js';
import type { Composition } from '../composition.js';
import { featureStore, segmentStore } from '../stores.js';
import { projectOf, sortedEnvironments, strategyTypeExists } from './catalog-reads.js';
import { contextFields } from './context-fields.js';
import { features } from './features.js';
import { tagTypes } from './tag-types.js';

/** The export and import slice, once per composition, on its ports. */
export const transfer = (c: Composition) => transferSlice(c, transferPorts(c));

/** What export and import read: every feature, the catalogue, and the feature slice's writes for an import. */
function transferPorts(c: Composition): TransferPorts {
  return {
    catalog: transferCatalog(c),
    features: c.once(featureStore),
    featureWrites: c.once(features).features.aggregates,
  };
}

/** Context fields and tag types are created through their services (an import adds the missing ones), the rest read from the adapters. */
function transferCatalog(c: Composition): TransferCatalog {
  return {
    environments: () => sortedEnvironments(c),
    project: (id) => projectOf(c, id),
    contextFields: () => c.once(contextFields).contextFields.list(),
    createContextField: async (field) => void (await c.once(contextFields).contextFields.create(field)),
    segments: () => c.once(segmentStore).list(),
    tagTypes: () => c.once(tagTypes).tagTypes.list(),
    createTagType: async ({ name, description, icon }) => void (await c.once(tagTypes).tagTypes.create(name, { description, icon })),
    strategyTypeExists: (name) => strategyTypeExists(c, name),
  };
}
