import type { Slice, SliceContext } from '../slice.js';
import { DynamoDeliveryLog, DynamoIntegrationStore } from './dynamo-store.js';
import { integrationOperations } from './operations.js';
import type { IntegrationPorts } from './ports.js';
import { integrationRoutes } from './routes.js';
import { IntegrationService } from './service.js';

/** Integrations (Unleash's addons): their configuration and delivery logs; delivering them is functions/integrations/. */
export function integrationSlice({ config, store, now }: SliceContext, ports: IntegrationPorts) {
  const integrations = new IntegrationService(
    new DynamoIntegrationStore(store.db, store.tableName),
    new DynamoDeliveryLog(store.db, store.tableName),
    ports.sealer,
    { allowPrivateUrls: config.integrationsAllowPrivateUrls },
    now,
  );
  return {
    routes: integrationRoutes,
    operations: integrationOperations({ integrations }),
    integrations,
  } satisfies Slice<typeof integrationRoutes> & Record<string, unknown>;
}
