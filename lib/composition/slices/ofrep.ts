import { ofrepSlice } from '../../ofrep/slice.js';
import type { Composition } from '../composition.js';
import { clients } from './client.js';

/** OFREP's slice, once per composition, on the SDK API's payload cache and metrics path (one of each per process, shared with the Frontend API). */
export const ofrep = (c: Composition) => {
  const { clientFeatures, clientMetrics } = c.once(clients);
  return ofrepSlice(c, { payloads: clientFeatures, usage: clientMetrics });
};
