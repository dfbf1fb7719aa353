import { BoundedCache } from '../bounded-cache.js';
import { AuthenticationRequired } from '../errors.js';
import { hashSecret, hashesMatch, type Caller } from './model.js';
import type { ApiTokenStore } from './store.js';

export interface TokenCacheOptions {
  /** How long a looked-up token (or its absence) is trusted; 0 looks up on every request. */
  ttlMs: number;
  /** Distinct secrets remembered; unknown secrets count too, so a flood of them stays bounded. */
  maxEntries?: number;
}

/** Shown when a request has no usable token; it names the header and the login path. */
export const authenticationRequiredMessage = (baseUriPath: string): string =>
  'You must log in to use this API. Send an API token in the Authorization header, ' +
  `or log in at ${baseUriPath}/auth/simple/login`;

/** A token as the checks need it, worked out once per lookup rather than once per request. */
interface KnownToken {
  caller: Caller;
  /** Epoch ms; Infinity when the token never expires. */
  expiresAt: number;
}

interface Lookup {
  token: Promise<KnownToken | undefined>;
  until: number;
}

/**
 * Resolves the `Authorization` header to a caller. Every request of every route needs this, so
 * lookups are remembered per process for a short TTL: with the revision check, a warm SDK poll
 * then makes at most one DynamoDB request (ADR 9). Known and unknown secrets are remembered
 * alike (Unleash caches unknown ones too). Deletions in this process are forgotten at once;
 * another warm container may accept a deleted token until its TTL runs out.
 */
export class TokenAuthenticator {
  private readonly lookups: BoundedCache<string, Lookup>;

  constructor(
    private readonly store: Pick<ApiTokenStore, 'findByHash'>,
    private readonly baseUriPath: string,
    private readonly options: TokenCacheOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.lookups = new BoundedCache({ maxEntries: options.maxEntries ?? 1000 });
  }

  async authenticate(authorization: string | undefined): Promise<Caller> {
    const secret = authorization?.replace(/^bearer\s+/i, '').trim();
    if (!secret) throw new AuthenticationRequired(authenticationRequiredMessage(this.baseUriPath));
    const at = this.now().getTime();
    const token = await this.lookup(hashSecret(secret), at);
    // Expiry is checked on every request against the clock, never cached.
    if (!token || token.expiresAt <= at) {
      throw new AuthenticationRequired(
        `${authenticationRequiredMessage(this.baseUriPath)}. The token you sent is unknown or has expired.`,
      );
    }
    return token.caller;
  }

  /** Drops what is remembered about a secret: after this process deletes or creates it. */
  forget(secretHash: string): void {
    this.lookups.delete(secretHash);
  }

  /** Concurrent requests with the same secret share one read; a failed read is not remembered. */
  private lookup(secretHash: string, at: number): Promise<KnownToken | undefined> {
    if (this.options.ttlMs <= 0) return this.read(secretHash);
    const known = this.lookups.get(secretHash);
    if (known && at < known.until) return known.token;
    const entry: Lookup = { token: this.read(secretHash), until: at + this.options.ttlMs };
    this.lookups.set(secretHash, entry);
    entry.token.catch(() => {
      if (this.lookups.get(secretHash) === entry) this.lookups.delete(secretHash);
    });
    return entry.token;
  }

  private async read(secretHash: string): Promise<KnownToken | undefined> {
    const token = await this.store.findByHash(secretHash);
    if (!token || !hashesMatch(token.secretHash, secretHash)) return undefined;
    // One frozen caller per lookup, shared by the requests that reuse it.
    const caller: Caller = Object.freeze({
      tokenName: token.tokenName, type: token.type, environment: token.environment, projects: Object.freeze([...token.projects]) as string[],
    });
    return { caller, expiresAt: token.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(token.expiresAt) };
  }
}
