import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import { definition as instanceFunction } from '../../functions/instance/handler.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, testServices } from '../support/services.js';

describe('an unexpected failure', () => {
  it('becomes a 500 with the request id and nothing internal, and is logged under that id', async () => {
    const services = testServices();
    const token = await adminToken(services);
    const failing = {
      ...instanceFunction,
      // The slice that serves GET /api/admin/ui-config, its operation replaced by one that fails.
      compose: (c: Parameters<typeof instanceFunction.compose>[0]) => Object.fromEntries(
        Object.entries(instanceFunction.compose(c)).map(([name, slice]) => [name, 'getUiConfig' in slice.routes
          ? { ...slice, operations: { ...slice.operations, getUiConfig: async () => { throw new Error('connection string postgres://secret@db'); } } }
          : slice]),
      ),
    };
    const handler = groupHandlerOf(failing, services.composition);
    const logged = captureLogs();
    const context = localContext('test');

    const result = (await handler(
      toApiGatewayEvent({
        method: 'GET', url: '/api/admin/ui-config', headers: { authorization: token }, body: Buffer.alloc(0),
        routeKey: 'GET /api/admin/ui-config', pathParameters: {}, sourceIp: '127.0.0.1',
      }),
      context,
    )) as APIGatewayProxyStructuredResultV2;

    const body = JSON.parse(result.body ?? '{}');
    expect(result.statusCode).toBe(500);
    expect(body.name).toBe('InternalError');
    expect(body.message).toContain(context.awsRequestId);
    expect(result.body).not.toContain('postgres');
    logged.restore();
    expect(logged.text()).toContain(context.awsRequestId);
  });
});
