import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHYSICAL_RESOURCE_ID, physicalIdOf } from '../../functions/bootstrap/cloudformation-response.js';
import { createBootstrapHandler, type AdminTokenBootstrap } from '../../functions/bootstrap/handler.js';
import { readSecretString } from '../../lib/secrets/secret-source.js';
import { applyBootstrapTokens, bootstrapTokenId, removeBootstrapToken } from '../../lib/tokens/bootstrap.js';
import type { ApiToken } from '../../lib/tokens/model.js';
import { ApiTokenService } from '../../lib/tokens/service.js';
import type { ApiTokenStore } from '../../lib/tokens/store.js';

/**
 * The bootstrap custom resource's protocol, against a local HTTP server standing in for both
 * CloudFormation's pre-signed response URL and Secrets Manager's endpoint. Storing
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
      // Names the stored token by its public id, so a later rotation can remove it.
      PhysicalResourceId: physicalIdOf(bootstrapTokenId(`*:*.${SECRET}`)),
      StackId: event('Create').StackId,
      RequestId: 'request-Create',
      LogicalResourceId: 'BootstrapAdminToken6B447A06',
      NoEcho: true,
    });
    expect(received[0]!.body).not.toContain(SECRET);
  });

  it('applies the token again on Update and keeps the physical id while the secret is the same', async () => {
    const applied: string[] = [];
    const { bootstrap } = fakeBootstrap({
      applyAdminToken: async (token) => {
        applied.push(token);
        return { inserted: 0, kept: 1 };
      },
    });
    const current = physicalIdOf(bootstrapTokenId(`*:*.${SECRET}`));
    await createBootstrapHandler(() => bootstrap)({ ...event('Update'), PhysicalResourceId: current } as CloudFormationCustomResourceEvent);

    expect(applied).toEqual([`*:*.${SECRET}`]);
    expect(responseBody()).toMatchObject({
      Status: 'SUCCESS',
      Reason: 'Admin token already present',
      PhysicalResourceId: current,
    });
  });

  it('deletes nothing on a Delete for an id that names no token (resources from before ids named one)', async () => {
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

  it('answers FAILED on Create with an id that names no token, so the rollback Delete removes nothing', async () => {
    const { bootstrap } = fakeBootstrap({
      readAdminSecret: async () => {
        throw new Error('AccessDeniedException');
      },
    });
    await createBootstrapHandler(() => bootstrap)(event('Create'));

    expect(responseBody()).toMatchObject({ Status: 'FAILED', PhysicalResourceId: PHYSICAL_RESOURCE_ID });
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

/** The token service over an in-memory store: the real bootstrap, service and removal rules. */
function tokenService() {
  const rows = new Map<string, ApiToken>();
  const store: ApiTokenStore = {
    findByHash: async (hash) => rows.get(hash),
    findById: async (id) => [...rows.values()].find((row) => row.tokenId === id),
    list: async () => [...rows.values()],
    insert: async (token) => {
      if (rows.has(token.secretHash)) return false;
      rows.set(token.secretHash, token);
      return true;
    },
    delete: async (hash) => {
      rows.delete(hash);
    },
  };
  const catalog = { environmentExists: async () => true, projectExists: async () => true };
  const authenticator = { authenticate: () => Promise.reject(new Error('not used')), forget: () => undefined };
  return new ApiTokenService(store, catalog, authenticator);
}

describe('bootstrap token rotation (issue 13, finding 5)', () => {
  const OLD_SECRET = 'OldSecretA1b2C3d4E5f6G7h8J9k0LmNoPqRsTuVwXyZ0123456';
  const NEW_SECRET = 'NewSecretZ9y8X7w6V5u4T3s2R1q0PoNmLkJiHgFeDcBa987654';

  function cloudBootstrap(tokens: ApiTokenService, secret: () => string): AdminTokenBootstrap {
    return {
      readAdminSecret: async () => secret(),
      applyAdminToken: (token) => applyBootstrapTokens(tokens, { admin: [token], client: [] }),
      removeAdminToken: (tokenId) => removeBootstrapToken(tokens, tokenId),
    };
  }

  /** Plays CloudFormation: the physical id each answer gives is the one the next event carries. */
  async function send(handler: ReturnType<typeof createBootstrapHandler>, type: 'Create' | 'Update' | 'Delete', physicalId?: string) {
    const base = event(type);
    await handler((physicalId ? { ...base, PhysicalResourceId: physicalId } : base) as CloudFormationCustomResourceEvent);
    return responseBody() as { Status: string; Reason: string; PhysicalResourceId: string };
  }

  const names = async (tokens: ApiTokenService) => (await tokens.list()).map((token) => token.tokenName).sort();

  it('removes the token of the previous secret once CloudFormation deletes the replaced resource, and nothing else', async () => {
    const tokens = tokenService();
    let secret = OLD_SECRET;
    const handler = createBootstrapHandler(() => cloudBootstrap(tokens, () => secret));

    const created = await send(handler, 'Create');
    const person = await tokens.create({ tokenName: 'alice', type: 'admin' });
    expect(await names(tokens)).toEqual(['admin', 'alice']);

    // The secret is regenerated (new generation settings): CloudFormation sends an Update.
    secret = NEW_SECRET;
    const updated = await send(handler, 'Update', created.PhysicalResourceId);
    expect(updated.Status).toBe('SUCCESS');
    // A new id: CloudFormation takes it for a replacement and, after the update has succeeded,
    // sends a Delete for the old one (docs: crpg-ref-requesttypes-update/-delete).
    expect(updated.PhysicalResourceId).not.toBe(created.PhysicalResourceId);
    expect(updated.Reason).toContain('previous one is removed once the update completes');
    // Until then both work: a rollback would still find the old token.
    expect((await tokens.list()).filter((token) => token.tokenName === 'admin')).toHaveLength(2);

    const cleanup = await send(handler, 'Delete', created.PhysicalResourceId);
    expect(cleanup).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining('removed') });

    const left = await tokens.list();
    expect(left.map((token) => token.tokenId).sort()).toEqual(
      [bootstrapTokenId(`*:*.${NEW_SECRET}`), person.token.tokenId].sort(),
    );
    expect(JSON.stringify(received.map((request) => request.body))).not.toContain(OLD_SECRET);
  });

  it("keeps the current secret's token when the stack itself is deleted", async () => {
    const tokens = tokenService();
    const handler = createBootstrapHandler(() => cloudBootstrap(tokens, () => OLD_SECRET));
    const created = await send(handler, 'Create');

    const deleted = await send(handler, 'Delete', created.PhysicalResourceId);

    expect(deleted).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining('kept') });
    expect(await names(tokens)).toEqual(['admin']);
  });

  it('never removes a token a person created, even one named admin like the bootstrap token', async () => {
    const tokens = tokenService();
    let secret = OLD_SECRET;
    const handler = createBootstrapHandler(() => cloudBootstrap(tokens, () => secret));
    const created = await send(handler, 'Create');
    const lookalike = await tokens.create({ tokenName: 'admin', type: 'admin' });
    const client = await tokens.create({ tokenName: 'admin', type: 'client', environment: 'development' });

    secret = NEW_SECRET;
    await send(handler, 'Update', created.PhysicalResourceId);
    await send(handler, 'Delete', created.PhysicalResourceId);
    // A Delete naming a token that is not a bootstrap admin token removes nothing either.
    const stray = await send(handler, 'Delete', physicalIdOf(client.token.tokenId));

    expect(stray).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining('not a bootstrap admin token') });
    expect((await tokens.list()).map((token) => token.tokenId).sort()).toEqual(
      [bootstrapTokenId(`*:*.${NEW_SECRET}`), lookalike.token.tokenId, client.token.tokenId].sort(),
    );
  });

  it('keeps the token and still answers SUCCESS when the secret cannot be read during a Delete', async () => {
    const tokens = tokenService();
    const handler = createBootstrapHandler(() => cloudBootstrap(tokens, () => OLD_SECRET));
    const created = await send(handler, 'Create');
    const failing = createBootstrapHandler(() => ({
      ...cloudBootstrap(tokens, () => OLD_SECRET),
      readAdminSecret: async () => {
        throw new Error('AccessDeniedException');
      },
    }));

    const answer = await send(failing, 'Delete', created.PhysicalResourceId);

    expect(answer).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining('kept') });
    expect(await names(tokens)).toEqual(['admin']);
  });
});

describe('secret source (Secrets Manager through the SDK)', () => {
  const options = () => ({
    endpoint: baseUrl,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example-secret-access-key', sessionToken: 'session' },
  });
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:s';

  it('asks Secrets Manager for the secret by id with a signed GetSecretValue, and returns SecretString', async () => {
    answer = { status: 200, body: JSON.stringify({ ARN, Name: 's', SecretString: SECRET }) };
    const value = await readSecretString(ARN, options());

    expect(value).toBe(SECRET);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(request!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(JSON.parse(request!.body)).toEqual({ SecretId: ARN });
    // Signed with the function's role (SigV4 for secretsmanager in the function's Region).
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/secretsmanager\/aws4_request/);
    expect(request!.headers['x-amz-security-token']).toBe('session');
  });

  it("reports Secrets Manager's refusal by name, without any value", async () => {
    answer = {
      status: 400,
      body: JSON.stringify({ __type: 'AccessDeniedException', message: 'not authorized to perform: secretsmanager:GetSecretValue' }),
    };
    await expect(readSecretString(ARN, options())).rejects.toThrow(/Cannot read secret .*AccessDeniedException.*not authorized/);
  });

  it('refuses a secret without a string value', async () => {
    answer = { status: 200, body: JSON.stringify({ ARN, Name: 's', SecretBinary: 'AAAA' }) };
    await expect(readSecretString(ARN, options())).rejects.toThrow(/has no string value/);
  });

  it("reaches each partition's own endpoint, so no per-Region table is needed (issue 13, finding 2)", async () => {
    const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const endpoints: Record<string, string> = {
      'ap-southeast-5': 'https://secretsmanager.ap-southeast-5.amazonaws.com/',
      'mx-central-1': 'https://secretsmanager.mx-central-1.amazonaws.com/',
      'cn-north-1': 'https://secretsmanager.cn-north-1.amazonaws.com.cn/',
      'us-gov-west-1': 'https://secretsmanager.us-gov-west-1.amazonaws.com/',
    };
    for (const [region, expected] of Object.entries(endpoints)) {
      const client = new SecretsManagerClient({ region });
      const { url } = client.config.endpointProvider({ Region: region, UseFIPS: false, UseDualStack: false });
      client.destroy();
      expect(url.href, region).toBe(expected);
    }
  });
});
