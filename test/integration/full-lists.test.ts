import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FULL_LIST_MAX_FEATURES } from '../../lib/limits.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { apiClient } from '../support/api.js';
import { freshInstanceServices, storeAdminToken } from '../support/services.js';

// The deprecated full lists refuse past FULL_LIST_MAX_FEATURES active features, counted from the
// projects' feature counts before any feature is read (issue 14, deliverable 2).
describe('E15 and the state export past their feature limit', () => {
  it('answer 400 ExceedsLimitError naming the paginated search, and list as before up to it', async () => {
    const services = await freshInstanceServices();
    const call = apiClient(services);
    const token = formatSecret(['*'], '*');
    await storeAdminToken(services, token);
    expect((await call({ method: 'GET', path: '/api/admin/features', token })).status).toBe(200);

    // As if the default project held one feature more than the limit (one of its count's shards).
    const db = createDocumentClient({ region: 'local', endpoint: services.config.dynamodbEndpoint });
    await db.send(new UpdateCommand({
      TableName: services.config.tableName, Key: keys.projectFeatureCount('default', 3),
      UpdateExpression: 'SET featureCount = :count', ExpressionAttributeValues: { ':count': FULL_LIST_MAX_FEATURES + 1 },
    }));
    db.destroy();

    for (const path of ['/api/admin/features', '/api/admin/state/export']) {
      const res = await call({ method: 'GET', path, token, headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status, path).toBe(400);
      expect(res.body.name, path).toBe('ExceedsLimitError');
      expect(res.body.message, path).toContain('/api/admin/search/features?offset=0&limit=100');
      expect(res.body.message, path).toContain('20,001');
    }
    expect((await call({ method: 'GET', path: '/api/admin/search/features?limit=1', token })).status).toBe(200);
  });
});
