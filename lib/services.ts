import packageJson from '../package.json' with { type: 'json' };
import type { AppConfig } from './config.js';
import { UiConfigService } from './instance/ui-config.js';
import { builtInScopeCatalog } from './projects/scope-catalog.js';
import { DynamoApiTokenStore } from './store/api-token-store.js';
import { DynamoFeatureStore } from './store/feature-store.js';
import { createDocumentClient } from './store/document-client.js';
import { DynamoInstanceStore } from './store/instance-store.js';
import { DynamoRevisionStore } from './store/revision-store.js';
import { DynamoStrategyTypeStore } from './store/strategy-type-store.js';
import { StrategyTypeService } from './strategies/service.js';
import { ApiTokenService } from './tokens/service.js';

/** The composition root: builds every service from one parsed configuration. */
export function createServices(config: AppConfig) {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const table = config.tableName;
  const revisions = new DynamoRevisionStore(db, table);
  return {
    config,
    revisions,
    featureStore: new DynamoFeatureStore(db, table, revisions),
    apiTokens: new ApiTokenService(new DynamoApiTokenStore(db, table), builtInScopeCatalog, config.baseUriPath),
    strategyTypes: new StrategyTypeService(new DynamoStrategyTypeStore(db, table)),
    uiConfig: new UiConfigService(
      { version: packageJson.version, unleashUrl: config.unleashUrl, baseUriPath: config.baseUriPath },
      new DynamoInstanceStore(db, table),
    ),
  };
}

export type Services = ReturnType<typeof createServices>;
