import type { EdgePorts } from '../../edge/ports.js';
import { edgeSlice } from '../../edge/slice.js';
import type { Composition } from '../composition.js';
import { tokenAuthenticator } from '../edge.js';
import { clients } from './client.js';

/** Unleash Edge's upstream endpoints, once per composition: the process's token check and the SDK API's usage rules. */
export const edges = (c: Composition) => edgeSlice(c, edgePorts(c));

export function edgePorts(c: Composition): EdgePorts {
  return { tokens: c.once(tokenAuthenticator), usage: c.once(clients).clientMetrics };
}
