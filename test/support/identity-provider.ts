import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** A person the provider knows: the login typed on its sign-in page is the account id. */
export interface Account {
  email: string;
  name?: string;
  /** Sent as given; `'absent'` leaves the claim out of the token (as Entra ID does). Default true. */
  email_verified?: boolean | 'absent';
  /** The groups claim, sent as `groups` (and as Keycloak's `realm_access.roles`). */
  groups?: string[];
}

/**
 * What the man in the middle does to the provider's answers, for the refusal tests. Every mode
 * keeps the provider real: it issues the code and the token, the tamperer only alters them.
 */
export type Tamper =
  | 'none'
  /** The ID token re-signed with another RSA key under the provider's key id. */
  | 'other-key'
  /** The ID token's payload changed, its signature kept. */
  | 'payload'
  /** Re-signed with the provider's own key, for another client. */
  | 'audience'
  /** Re-signed with the provider's own key, naming another issuer. */
  | 'issuer'
  /** Re-signed with the provider's own key, expired an hour ago. */
  | 'expired'
  /** The authorization request's nonce swapped before the provider sees it. */
  | 'nonce'
  /** The token endpoint never answers (a provider down mid-login). */
  | 'hang';

export interface IdentityProvider {
  issuer: string;
  discoverUrl: string;
  /** A client signing ID tokens with RS256, and one signing with RS384. */
  clients: { rs256: ClientCredentials; rs384: ClientCredentials };
  accounts: Map<string, Account>;
  tamper: Tamper;
  /** Token requests the provider answered (a replayed code is one of them, refused). */
  tokenRequests: number;
  close(): Promise<void>;
}

/**
 * The E19 settings the OIDC tests start from: this provider's RS256 client, auto-create as Viewer,
 * groups synced from the `groups` claim; `overrides` change or add settings.
 */
export function oidcSettingsFor(idp: IdentityProvider, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    enabled: true, discoverUrl: idp.discoverUrl, clientId: idp.clients.rs256.clientId, secret: idp.clients.rs256.secret,
    autoCreate: true, defaultRootRole: 'Viewer', enableGroupSyncing: true, groupJsonPath: 'groups', addGroupsScope: true,
    ...overrides,
  };
}

export interface ClientCredentials {
  clientId: string;
  secret: string;
}

/**
 * A real OpenID Connect provider (`oidc-provider`, a certified OP) on loopback, behind a small
 * forwarding server that can tamper with its answers. Its sign-in page is oidc-provider's
 * development page: any login with any password signs in as the account of that login. The
 * clients are first-party (no consent page): their grant is made when first needed.
 */
export async function startIdentityProvider(options: { redirectUris: string[]; postLogoutRedirectUris: string[] }): Promise<IdentityProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid, use: 'sig' };
  const accounts = new Map<string, Account>();
  const clients = {
    rs256: { clientId: `unleash-${randomUUID().slice(0, 8)}`, secret: randomUUID() },
    rs384: { clientId: `unleash-rs384-${randomUUID().slice(0, 8)}`, secret: randomUUID() },
  };

  // The forwarding server listens first: its address is the issuer the provider is built with.
  const front = createServer();
  await listen(front);
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      { client_id: clients.rs256.clientId, client_secret: clients.rs256.secret, redirect_uris: options.redirectUris, post_logout_redirect_uris: options.postLogoutRedirectUris, id_token_signed_response_alg: 'RS256' },
      { client_id: clients.rs384.clientId, client_secret: clients.rs384.secret, redirect_uris: options.redirectUris, post_logout_redirect_uris: options.postLogoutRedirectUris, id_token_signed_response_alg: 'RS384' },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomUUID()] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups', 'realm_access'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // Claims go into the ID token itself, as Okta, Entra ID and Keycloak put them by default.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    enabledJWA: { idTokenSigningAlgValues: ['RS256', 'RS384', 'RS512'] },
    // Explicit lifetimes (seconds): the defaults work but each logs a notice on first use.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          ...(account.email_verified === 'absent' ? {} : { email_verified: account.email_verified ?? true }),
          ...(account.name ? { name: account.name } : {}),
          ...(account.groups ? { groups: account.groups, realm_access: { roles: account.groups } } : {}),
        }),
      };
    },
    // First-party clients: the grant is given without a consent page.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile groups');
      grant.addOIDCClaims(['email', 'email_verified', 'name', 'groups', 'realm_access']);
      await grant.save();
      return grant;
    },
  });
  const inner = createServer(provider.callback());
  await listen(inner);
  const innerPort = (inner.address() as AddressInfo).port;

  const state: IdentityProvider = {
    issuer,
    discoverUrl: `${issuer}/.well-known/openid-configuration`,
    clients,
    accounts,
    tamper: 'none',
    tokenRequests: 0,
    close: async () => {
      await Promise.all([close(front), close(inner)]);
    },
  };

  front.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let path = req.url ?? '/';
    if (state.tamper === 'nonce' && path.startsWith('/auth?')) {
      const url = new URL(path, issuer);
      url.searchParams.set('nonce', 'a-nonce-this-login-never-sent');
      path = `${url.pathname}${url.search}`;
    }
    const isToken = req.method === 'POST' && path === '/token';
    if (isToken) state.tokenRequests += 1;
    // Left unanswered; close() ends the connection.
    if (isToken && state.tamper === 'hang') return;
    const forward = httpRequest({ host: '127.0.0.1', port: innerPort, method: req.method, path, headers: req.headers }, (answer) => {
      if (!isToken || state.tamper === 'none' || state.tamper === 'nonce' || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token: string };
          body.id_token = await tampered(body.id_token, state.tamper, signingKey);
          const text = JSON.stringify(body);
          const { 'content-length': _length, ...headers } = answer.headers;
          res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(text) });
          res.end(text);
        })();
      });
    });
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  return state;
}

async function tampered(idToken: string, mode: Tamper, signingKey: JWK): Promise<string> {
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  const claims = decodeJwt(idToken);
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string }).alg;
  const now = Math.floor(Date.now() / 1000);
  const sign = async (changed: Record<string, unknown>, key: JWK) => {
    return new SignJWT(changed).setProtectedHeader({ alg, kid: signingKey.kid! }).sign(await importJWK(key, alg));
  };
  switch (mode) {
    case 'other-key': {
      const { privateKey } = await generateKeyPair(alg, { extractable: true });
      return sign(claims, await exportJWK(privateKey));
    }
    case 'payload': {
      const changed = Buffer.from(JSON.stringify({ ...claims, email: 'someone.else@example.com' }), 'utf8').toString('base64url');
      return `${header}.${changed}.${signature}`;
    }
    case 'audience':
      return sign({ ...claims, aud: 'another-client' }, signingKey);
    case 'issuer':
      return sign({ ...claims, iss: 'https://issuer.example.com' }, signingKey);
    case 'expired':
      return sign({ ...claims, iat: now - 7200, exp: now - 3600 }, signingKey);
    default:
      return `${header}.${payload}.${signature}`;
  }
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A browser at the provider: its cookies, and the provider's development sign-in page filled in
 * as `login`. `serviceUrl` is where the provider sends the browser back to (the service's URL).
 */
export class ProviderBrowser {
  private readonly jar = new Map<string, string>();

  constructor(private readonly serviceUrl: string) {}

  /** Follows the provider's redirects (signing in where asked) until it sends the browser back to the service. */
  async signIn(authorizeUrl: string, login: string): Promise<URL> {
    let next: { url: string; init?: RequestInit } = { url: authorizeUrl };
    for (let step = 0; step < 10; step += 1) {
      const res = await fetch(next.url, { ...next.init, redirect: 'manual', headers: { ...(next.init?.headers ?? {}), cookie: this.cookie() } });
      for (const set of res.headers.getSetCookie()) {
        const [pair = ''] = set.split(';');
        const eq = pair.indexOf('=');
        this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (location) {
        const target = new URL(location, next.url);
        if (target.href.startsWith(this.serviceUrl)) return target;
        next = { url: target.href };
        continue;
      }
      const page = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      if (res.status !== 200 || !action || !page.includes('name="login"')) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
      next = {
        url: new URL(action.replace(/&amp;/g, '&'), next.url).href,
        init: { method: 'POST', body: new URLSearchParams({ prompt: 'login', login, password: 'any' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      };
    }
    throw new Error('the provider never sent the browser back');
  }

  private cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
