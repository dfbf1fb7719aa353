import type { Services } from '../../local/app-services.js';
import type { RootRoleName } from '../../lib/roles/model.js';
import type { User } from '../../lib/users/model.js';
import { resendWhileUnavailable, type ApiRequest, type ApiResponse } from './api.js';
import { unique } from './services.js';

/** A password that follows the password rules. */
export const GOOD_PASSWORD = 'Correct-Horse-7-Battery';

/** A user with a password, created through the real user service. */
export async function userWithPassword(services: Services, rootRole: RootRoleName, password = GOOD_PASSWORD): Promise<User> {
  const username = unique(`person-${rootRole.toLowerCase()}`);
  return services.users.create({ username, email: `${username}@example.com`, name: username, rootRole, password }, 'test');
}

/** The `name=value` part of a Set-Cookie header, as a browser sends it back. */
export const cookiePair = (setCookie: string | undefined): string => (setCookie ?? '').split(';')[0] ?? '';

/**
 * Logs in through the handler; answers the session cookie to send (`unleash-session=…`). A login
 * that met its store deadline on a busy machine answered 503 and kept nothing: it is sent again.
 */
export async function logIn(
  call: (request: ApiRequest) => Promise<ApiResponse>,
  username: string,
  password = GOOD_PASSWORD,
): Promise<string> {
  const res = await resendWhileUnavailable(() => call({ method: 'POST', path: '/auth/simple/login', body: { username, password } }));
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return cookiePair(res.headers['set-cookie']);
}
