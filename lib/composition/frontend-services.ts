import type { AppConfig } from '../config.js';
import { FrontendOrigins } from '../frontend/origins.js';
import { FrontendService } from '../frontend/service.js';
import { connectStore, createClientServices, type ClientServices, type ClientServicesOptions, type StoreContext } from './client-services.js';

/** The Frontend API's parts, on the SDK root's payload cache, revision clock and metrics. */
export function frontendParts(config: AppConfig, sdk: Pick<ClientServices, 'store' | 'clientFeatures' | 'clock'>) {
  return {
    frontend: new FrontendService(sdk.clientFeatures),
    frontendOrigins: new FrontendOrigins(sdk.store.db, sdk.store.tableName, sdk.store.revisions, sdk.clock, config.frontendApiOrigins),
  };
}

/**
 * The frontend function's composition root: the SDK root (no admin module) and the evaluator,
 * which only this function carries.
 */
export function createFrontendServices(config: AppConfig, store: StoreContext = connectStore(config), options: ClientServicesOptions = {}) {
  const sdk = createClientServices(config, store, options);
  return { ...sdk, ...frontendParts(config, sdk) };
}

export type FrontendServices = ReturnType<typeof createFrontendServices>;
