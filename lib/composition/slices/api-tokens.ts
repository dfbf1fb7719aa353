import { storedScopeCatalog } from '../../projects/scope-catalog.js';
import { apiTokenSlice } from '../../tokens/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore, tokenAuthenticator } from '../edge.js';
import { environmentStore, projectStore } from '../stores.js';

/** The API tokens' slice, once per composition, on the edge's token store and cache; scopes checked against the stored projects and environments. */
export const apiTokens = (c: Composition) => apiTokenSlice(c, {
  store: c.once(apiTokenStore),
  authenticator: c.once(tokenAuthenticator),
  scopes: storedScopeCatalog(c.once(projectStore), c.once(environmentStore)),
});
