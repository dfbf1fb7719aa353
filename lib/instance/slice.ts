import packageJson from '../../package.json' with { type: 'json' };
import type { Slice, SliceContext } from '../slice.js';
import { DynamoSeedStore } from './dynamo-seed-store.js';
import { DynamoInstanceStore } from './dynamo-store.js';
import { FirstStart } from './first-start.js';
import { instanceOperations } from './operations.js';
import type { InstancePorts } from './ports.js';
import { instanceRoutes } from './routes.js';
import { UiConfigService } from './ui-config.js';

/** The instance itself: liveness, the admin UI's configuration (E16), and the fresh install's data written once per table. */
export function instanceSlice({ config, store, now }: SliceContext, ports: InstancePorts) {
  const uiConfig = new UiConfigService(
    { version: packageJson.version, unleashUrl: config.unleashUrl, baseUriPath: config.baseUriPath },
    new DynamoInstanceStore(store.db, store.tableName),
    ports.logins,
    ports.frontendOrigins,
    ports.maintenance,
  );
  return {
    routes: instanceRoutes,
    operations: instanceOperations({ uiConfig }, ports, now),
    uiConfig,
    /** Writes a fresh install's data once per table (local start, tests, cloud bootstrap). */
    firstStart: new FirstStart(new DynamoSeedStore(store.db, store.tableName)),
  } satisfies Slice<typeof instanceRoutes> & Record<string, unknown>;
}
