import { formatSecret } from '../../lib/tokens/model.js';
import type { Services } from '../../local/app-services.js';
import type { ApiRequest, ApiResponse } from './api.js';
import { unique } from './services.js';

type Call = (request: ApiRequest) => Promise<ApiResponse>;

/** An admin token with a known name: the name is who the API records as `createdBy`. */
export async function namedAdminToken(services: Services, tokenName: string): Promise<string> {
  const secret = formatSecret(['*'], '*');
  await services.apiTokens.insertKnownSecret(secret, { tokenName, type: 'admin', environment: '*', projects: ['*'] });
  return secret;
}

/** A user with a unique e-mail and username; answers the created User resource. */
export async function createUser(call: Call, token: string, body: Record<string, unknown> = {}): Promise<any> {
  const name = unique('user');
  const res = await call({
    method: 'POST', path: '/api/admin/user-admin', token,
    body: { email: `${name}@example.com`, username: name, name: 'Test User', rootRole: 'Viewer', ...body },
  });
  if (res.status !== 201) throw new Error(`creating a user answered ${res.status}: ${res.text}`);
  return res.body;
}
