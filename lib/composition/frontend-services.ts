import type { AppConfig } from '../config.js';
import { FrontendOrigins } from '../frontend/origins.js';
import { connectStore, createClientServices, type ClientServices, type ClientServicesOptions, type StoreContext } from './client-services.js';

/**
 * The Frontend API's CORS origins, on the SDK root's store and revision clock. Every composition
 * has them (the UI configuration shows them, the access function sets them); the evaluation engine
 * is the frontend function's alone (functions/frontend/handler.ts), so no admin function's bundle
 * or cold start carries it.
 */
export function frontendOriginsOf(config: AppConfig, sdk: Pick<ClientServices, 'store' | 'clock'>): FrontendOrigins {
  return new FrontendOrigins(sdk.store.db, sdk.store.tableName, sdk.store.revisions, sdk.clock, config.frontendApiOrigins);
}

/** The frontend function's composition root: the SDK root (no admin module) and the origins. */
export function createFrontendServices(config: AppConfig, store: StoreContext = connectStore(config), options: ClientServicesOptions = {}) {
  const sdk = createClientServices(config, store, options);
  return { ...sdk, frontendOrigins: frontendOriginsOf(config, sdk) };
}
