import { ExpiringPromises } from '../bounded-cache.js';
import type { RevisionState } from '../revision.js';
import { AuthenticationRequired } from '../errors.js';
import type { Authentication } from '../http/caller.js';
import { hashSecret, hashesMatch, type Caller } from './model.js';
import type { ApiTokenStore } from './store.js';
import { outsideRequest } from '../request-deadline.js';

export interface TokenCacheOptions {
  /** How long a looked-up token (or its absence) is trusted; 0 looks up on every request. */
  ttlMs: number;
  /** Distinct secrets remembered; unknown secrets count too, so a flood of them stays bounded. */
  maxEntries?: number;
  /**
   * The revision clock: its read (at most one per check interval, shared with the SDK path)
   * carries the token-change counter, and a moved counter empties the cache. Without it only
   * the TTL and this process's own changes end a remembered lookup.
   */
  changes?: { state(): Promise<RevisionState> };
}

export type { Authentication } from '../http/caller.js';

/** Shown when a request has no usable token; it names the header and the login path. */
export const authenticationRequiredMessage = (baseUriPath: string): string =>
  'You must log in to use this API. Send an API token in the Authorization header, ' +
  `or log in at ${loginPathOf(baseUriPath)}`;

/** Where people log in with a password (Unleash's simple auth), under the base path. */
export const loginPathOf = (baseUriPath: string): string => `${baseUriPath}/auth/simple/login`;

/** A token as the checks need it, worked out once per lookup rather than once per request. */
interface KnownToken {
  caller: Caller;
  /** Epoch ms; Infinity when the token never expires. */
  expiresAt: number;
}

/**
 * Resolves the `Authorization` header to a caller. Every request of every route needs this, so
 * lookups are remembered per process: with the revision check, a warm SDK poll then makes at
 * most one DynamoDB request (ADR 9). Known and unknown secrets are remembered alike (Unleash
 * caches unknown ones too). Every token created or deleted moves the token-change counter on
 * the revision item, which each process reads once per check interval anyway; when it moved,
 * everything remembered is dropped, so a deleted token stops working on every instance within
 * that interval (ADR 11). The TTL bounds a lookup where no counter is read.
 */
export class TokenAuthenticator {
  private readonly lookups: ExpiringPromises<string, KnownToken | undefined>;
  /** The token-change counter the remembered lookups are valid for. */
  private tokenChanges = -1;

  constructor(
    private readonly store: Pick<ApiTokenStore, 'findByHash'>,
    private readonly baseUriPath: string,
    private readonly options: TokenCacheOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.lookups = new ExpiringPromises(options.maxEntries ?? 1000);
  }

  async authenticate(authorization: string | undefined): Promise<Authentication> {
    const secretHash = this.secretHashOf(authorization);
    if (secretHash === undefined) throw new AuthenticationRequired(authenticationRequiredMessage(this.baseUriPath), loginPathOf(this.baseUriPath));
    const state = await this.options.changes?.state();
    if (state && state.tokenChanges > this.tokenChanges) {
      this.lookups.clear();
      this.tokenChanges = state.tokenChanges;
    }
    const at = this.now().getTime();
    const token = await this.lookup(secretHash, at);
    // Expiry is checked on every request against the clock, never cached.
    if (!token || token.expiresAt <= at) {
      throw new AuthenticationRequired(
        `${authenticationRequiredMessage(this.baseUriPath)}. The token you sent is unknown or has expired.`,
        loginPathOf(this.baseUriPath),
      );
    }
    return { caller: token.caller, revision: state?.revision };
  }

  /**
   * The SHA-256 of the header's secret (raw or after `Bearer`), undefined when it holds none. An
   * SDK sends the same header on every poll, so the hash is kept by the header's text: a pure
   * function of it, which says nothing about whether the token is still valid (the lookups
   * above, emptied when the token-change counter moves, and the expiry check decide that).
   */
  private secretHashOf(authorization: string | undefined): string | undefined {
    if (authorization === undefined) return undefined;
    let secretHash = this.secretHashes.get(authorization);
    if (secretHash === undefined) {
      const secret = authorization.replace(/^bearer\s+/i, '').trim();
      if (!secret) return undefined;
      secretHash = hashSecret(secret);
      // Bounded like the lookups: a flood of different headers only empties it.
      if (this.secretHashes.size >= (this.options.maxEntries ?? 1000)) this.secretHashes.clear();
      this.secretHashes.set(authorization, secretHash);
    }
    return secretHash;
  }

  /** Secret hashes by the `Authorization` header they came from. */
  private readonly secretHashes = new Map<string, string>();

  /** Drops what is remembered about a secret: after this process deletes or creates it. */
  forget(secretHash: string): void {
    this.lookups.delete(secretHash);
  }

  /** Concurrent requests with the same secret share one read; a failed read is not remembered. */
  private lookup(secretHash: string, at: number): Promise<KnownToken | undefined> {
    if (this.options.ttlMs <= 0) return this.read(secretHash);
    return this.lookups.get(secretHash, at, this.options.ttlMs, this.readToken);
  }

  /**
   * `read`, bound once: the SDK poll's lookup allocates no closure. Shared by every request with
   * the same secret that comes meanwhile, so read as no request's: the deadline of the one that
   * started it (an Edge validation is a request with one) fails none of the others.
   */
  private readonly readToken = (secretHash: string) => outsideRequest(() => this.read(secretHash));

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
