import type { Composition } from './composition.js';
import { createClientServices } from './client-services.js';
import { frontendOrigins } from './edge.js';

/** The frontend function's composition root: the SDK root (no admin module) and the origins. */
export function createFrontendServices(c: Composition) {
  return { ...createClientServices(c), frontendOrigins: c.once(frontendOrigins) };
}
