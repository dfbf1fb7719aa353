import type { ScopeCatalog } from '../projects/scope-catalog.js';
import type { TokenAuthenticator } from './authenticator.js';
import type { ApiTokenStore } from './store.js';

/** What API tokens read of other resources, and the edge's own token store and cache. */
export interface ApiTokenPorts {
  /** The process's token store, shared with the edge that authenticates callers. */
  store: ApiTokenStore;
  /** The edge's token cache: a deleted token is forgotten at once in this process. */
  authenticator: Pick<TokenAuthenticator, 'authenticate' | 'forget'>;
  /** Whether the projects and environment a new token names exist. */
  scopes: ScopeCatalog;
}
