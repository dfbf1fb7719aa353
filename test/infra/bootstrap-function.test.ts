import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHYSICAL_RESOURCE_ID } from '../../functions/bootstrap/cloudformation-response.js';
import { createBootstrapHandler, type AdminTokenBootstrap } from '../../functions/bootstrap/handler.js';
import { readSecretString } from '../../lib/secrets/secret-source.js';

/**
 * The bootstrap custom resource's protocol, against a local HTTP server standing in for both
 * CloudFormation's pre-signed response URL and the Parameters and Secrets extension. Storing
 * the token itself is `applyBootstrapTokens`, covered by the integration tests.
 */

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const SECRET = 'Q7pZ2xV9kLm4Nc8RtY3wB6sD1fG5hJ0a';
let server: Server;
let baseUrl: string;
let received: Received[] = [];
let answer: { status: number; body: string } = { status: 200, body: '' };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(answer.status).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = { status: 200, body: '' };
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

function event(requestType: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent {
  const common = {
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:bootstrap',
    ResponseURL: `${baseUrl}/cfn-response?signature=abc`,
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/ServerlessToggles/1',
    RequestId: `request-${requestType}`,
    LogicalResourceId: 'BootstrapAdminToken6B447A06',
    ResourceType: 'Custom::BootstrapAdminToken',
    ResourceProperties: { ServiceToken: 'arn', SecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:s' },
  };
  if (requestType === 'Create') return { ...common, RequestType: 'Create' };
  const existing = { ...common, PhysicalResourceId: 'existing-id' };
  if (requestType === 'Update') return { ...existing, RequestType: 'Update', OldResourceProperties: common.ResourceProperties };
  return { ...existing, RequestType: 'Delete' };
}

function fakeBootstrap(overrides: Partial<AdminTokenBootstrap> = {}) {
  const applied: string[] = [];
  const bootstrap: AdminTokenBootstrap = {
    readAdminSecret: async () => SECRET,
    applyAdminToken: async (token) => {
      applied.push(token);
      return { inserted: 1, kept: 0 };
    },
    ...overrides,
  };
  return { applied, bootstrap };
}

const responseBody = () => JSON.parse(received.at(-1)!.body) as Record<string, unknown>;

describe('bootstrap custom resource', () => {
  it('stores *:*.<secret> on Create and reports SUCCESS to CloudFormation', async () => {
    const { applied, bootstrap } = fakeBootstrap();
    await createBootstrapHandler(() => bootstrap)(event('Create'));

    expect(applied).toEqual([`*:*.${SECRET}`]);
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('PUT');
    expect(received[0]!.url).toBe('/cfn-response?signature=abc');
    expect(received[0]!.headers['content-type']).toBe('');
    expect(responseBody()).toMatchObject({
      Status: 'SUCCESS',
      PhysicalResourceId: PHYSICAL_RESOURCE_ID,
      StackId: event('Create').StackId,
      RequestId: 'request-Create',
      LogicalResourceId: 'BootstrapAdminToken6B447A06',
      NoEcho: true,
    });
    expect(received[0]!.body).not.toContain(SECRET);
  });

  it('applies the token again on Update and keeps the physical id', async () => {
    const applied: string[] = [];
    const { bootstrap } = fakeBootstrap({
      applyAdminToken: async (token) => {
        applied.push(token);
        return { inserted: 0, kept: 1 };
      },
    });
    await createBootstrapHandler(() => bootstrap)(event('Update'));

    expect(applied).toEqual([`*:*.${SECRET}`]);
    expect(responseBody()).toMatchObject({
      Status: 'SUCCESS',
      Reason: 'Admin token already present',
      PhysicalResourceId: 'existing-id',
    });
  });

  it('deletes nothing on Delete and still answers SUCCESS', async () => {
    const dependencies = vi.fn(() => fakeBootstrap().bootstrap);
    await createBootstrapHandler(dependencies)(event('Delete'));

    expect(dependencies).not.toHaveBeenCalled();
    expect(responseBody()).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'existing-id' });
  });

  it('answers FAILED with a reason that never shows the secret', async () => {
    const { bootstrap } = fakeBootstrap({
      applyAdminToken: async (token) => {
        throw new Error(`could not store ${token}`);
      },
    });
    await createBootstrapHandler(() => bootstrap)(event('Create'));

    expect(responseBody().Status).toBe('FAILED');
    expect(responseBody().Reason).toContain('could not store *:*.<secret>');
    expect(received[0]!.body).not.toContain(SECRET);
  });

  it('answers FAILED rather than leaving the stack waiting when configuration is missing', async () => {
    await createBootstrapHandler(() => {
      throw new Error('ADMIN_TOKEN_SECRET_ARN is not set');
    })(event('Create'));

    expect(responseBody()).toMatchObject({ Status: 'FAILED', Reason: expect.stringContaining('ADMIN_TOKEN_SECRET_ARN') });
  });

  it('fails the invocation when CloudFormation refuses the response', async () => {
    answer = { status: 403, body: 'SignatureDoesNotMatch' };
    const { bootstrap } = fakeBootstrap();
    await expect(createBootstrapHandler(() => bootstrap)(event('Create'))).rejects.toThrow(/HTTP 403/);
  });
});

describe('secret source (Parameters and Secrets extension)', () => {
  const port = () => Number(new URL(baseUrl).port);

  it('asks the extension for the secret by id with the session token, and returns SecretString', async () => {
    answer = { status: 200, body: JSON.stringify({ ARN: 'arn', SecretString: SECRET }) };
    const value = await readSecretString('arn:aws:secretsmanager:eu-west-1:1:secret:s', { port: port(), sessionToken: 'session' });

    expect(value).toBe(SECRET);
    expect(received[0]!.url).toBe(`/secretsmanager/get?secretId=${encodeURIComponent('arn:aws:secretsmanager:eu-west-1:1:secret:s')}`);
    expect(received[0]!.headers['x-aws-parameters-secrets-token']).toBe('session');
  });

  it('reports the status when the extension refuses', async () => {
    answer = { status: 400, body: 'not authorized to perform secretsmanager:GetSecretValue' };
    await expect(readSecretString('s', { port: port(), sessionToken: 'session' })).rejects.toThrow(/400.*not authorized/);
  });

  it('refuses to run outside Lambda, where no session token exists', async () => {
    await expect(readSecretString('s', { port: port(), sessionToken: '' })).rejects.toThrow(/AWS_SESSION_TOKEN/);
  });
});
