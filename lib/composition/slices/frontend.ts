import { frontendSlice } from '../../frontend/slice.js';
import type { Composition } from '../composition.js';
import { clients } from './client.js';

/** The Frontend API's slice, once per composition, on the SDK API's payload cache and metrics path (one of each per process). */
export const frontend = (c: Composition) => {
  const { clientFeatures, clientMetrics } = c.once(clients);
  return frontendSlice(c, { payloads: clientFeatures, usage: clientMetrics });
};
