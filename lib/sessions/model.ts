import { randomBytes } from 'node:crypto';
import { hashSecret } from '../tokens/model.js';

/** Unleash's cookie name, so the UI and people's tools see what they know. */
export const SESSION_COOKIE = 'unleash-session';

/** How long a session lasts from login: Unleash's default (`session.ttlHours`, 48). No rolling renewal, as in Unleash. */
export const SESSION_TTL_MS = 48 * 60 * 60 * 1000;

/** A stored session: the user it stands for and when it ends. The secret itself is never stored. */
export interface Session {
  userId: number;
  /** sha256 of the cookie's secret, as API tokens are kept. */
  secretHash: string;
  createdAt: string;
  /** The user's passwordVersion at login: a later password change ends the session. */
  passwordVersion: number;
  /** Epoch ms. DynamoDB's TTL deletes the item some time after; reads check it against the clock. */
  expiresAt: number;
  /**
   * A single sign-on login's session: its ID token, which logout hands to the provider for single
   * sign-out, is kept in an item of its own (SessionStore.idTokenOf), so the session read on
   * every request stays small whatever the token carries (200 groups are ~8 KB).
   */
  sso?: boolean;
}

/** A new session's cookie value, `<user id>.<secret>`: the id names the partition the session lives in. */
export function newSessionValue(userId: number): { value: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { value: `${userId}.${secret}`, secretHash: hashSecret(secret) };
}

/** The user id and secret hash a cookie value names; undefined for anything not shaped like one. */
export function parseSessionValue(value: string): { userId: number; secretHash: string } | undefined {
  const match = /^([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return undefined;
  return { userId: Number(match[1]), secretHash: hashSecret(match[2] as string) };
}


/** The value of one cookie among a request's cookies (API Gateway's `cookies`, or `Cookie` headers). */
export function cookieValue(cookies: readonly string[], name: string): string | undefined {
  for (const header of cookies) {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
  }
  return undefined;
}

export interface CookieSettings {
  /** Where the cookie is sent: the service's base path (`/` without one), as Unleash scopes it. */
  path: string;
  /** Only over https: in the cloud, and wherever UNLEASH_URL is an https address. */
  secure: boolean;
}

export interface SessionSettings {
  cookie: CookieSettings;
  /**
   * Where the service's own pages are served, the only origins a cookie-carried change may come
   * from: UNLEASH_URL's origin, ADMIN_UI_URL's when set, and on a laptop the loopback names of
   * UNLEASH_URL's port.
   */
  ownOrigins: readonly string[];
}

/**
 * Read from the configuration. The cloud is told apart from a laptop as lib/config.ts does it:
 * DYNAMODB_ENDPOINT is set only for DynamoDB Local. In the cloud, and wherever UNLEASH_URL is
 * an https address, the cookie is `Secure`; `npm start` on http://localhost needs it without.
 */
export function sessionSettingsOf(
  config: { unleashUrl: string; adminUiUrl?: string | undefined; baseUriPath: string; dynamodbEndpoint: string | undefined },
): SessionSettings {
  const url = new URL(config.unleashUrl);
  return {
    cookie: { path: config.baseUriPath || '/', secure: url.protocol === 'https:' || config.dynamodbEndpoint === undefined },
    ownOrigins: [
      url.origin,
      ...(config.adminUiUrl ? [new URL(config.adminUiUrl).origin] : []),
      ...(config.dynamodbEndpoint !== undefined ? loopbackAliasesOf(url) : []),
    ],
  };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * `npm start` sets UNLEASH_URL to http://localhost:<port> and listens on 127.0.0.1:<port>, and
 * prints that address to open: on a laptop, a loopback UNLEASH_URL's other loopback names at
 * the same scheme and port are the same server. Only there: in the cloud the service is never
 * reached on loopback.
 */
function loopbackAliasesOf(url: URL): string[] {
  if (!LOOPBACK_NAMES.includes(url.hostname)) return [];
  const port = url.port ? `:${url.port}` : '';
  return LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${port}`).filter((origin) => origin !== url.origin);
}

/**
 * The session's Set-Cookie header. HttpOnly: page scripts never read it. SameSite=Lax, as Unleash
 * sets it: the browser sends it on top-level navigations from other sites (a link to a flag in a
 * chat opens the console logged in) but not on their forms, fetches or frames; Strict would make
 * such a link land logged out. Requests that change something are checked for a same-origin
 * `Origin` too (lib/http/authorize.ts).
 */
export function sessionCookie(value: string, settings: CookieSettings, maxAgeMs: number): string {
  return cookieHeader(SESSION_COOKIE, value, settings, maxAgeMs);
}

/** A Set-Cookie header for a cookie only the service reads (HttpOnly, SameSite=Lax; see sessionCookie). */
export function cookieHeader(name: string, value: string, settings: CookieSettings, maxAgeMs: number): string {
  return [
    `${name}=${value}`,
    `Path=${settings.path}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(settings.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Clears the cookie in the browser (logout, an unknown or ended session). */
export const clearedSessionCookie = (settings: CookieSettings): string => sessionCookie('', settings, 0);

/** A person calling with a session cookie is a caller the edge knows (lib/http/caller.ts). */
export { isUserCaller, type UserCaller } from '../http/caller.js';
