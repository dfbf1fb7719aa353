import * as client from 'openid-client';
import { ExpiringPromises } from '../bounded-cache.js';
import { hashSecret } from '../tokens/model.js';
import { timeLeft } from '../request-deadline.js';
import { WRITE_BUDGET_MS } from '../time-budget.js';
import type { IdTokenSigningAlgorithm } from './model.js';

/** What a login needs of the saved settings to talk to the provider. */
export interface ProviderSettings {
  discoverUrl: string;
  clientId: string;
  clientSecret: string;
  idTokenSigningAlgorithm: IdTokenSigningAlgorithm;
}

export interface ProviderOptions {
  /**
   * Plain http to the provider: only where the service itself runs on a laptop (DynamoDB
   * Local), for a provider on the same machine or network. In the cloud a provider is https.
   */
  allowHttp: boolean;
  /** How long one request to the provider may take at most, in ms (default 3,000); see `providerFetch`. */
  timeoutMs?: number;
  /** How long a discovered configuration (endpoints, keys) is kept before it is fetched again. */
  refreshMs?: number;
}

/** The provider could not be asked (down, slow, not an OIDC discovery document): a login cannot start or finish. */
export class ProviderUnavailable extends Error {}

/**
 * The identity providers this container talks to, through `openid-client` (a certified relying
 * party library): the discovery document is fetched once per settings and kept for
 * `refreshMs`, and with it the provider's keys, which the library fetches when a token names a
 * key it has not seen. Every ID token's signature is checked against those published keys
 * (`enableNonRepudiationChecks`; without it the library trusts the TLS channel alone) and its
 * `alg` against the configured algorithm (`id_token_signed_response_alg`).
 */
export class IdentityProviders {
  private readonly configurations = new ExpiringPromises<string, client.Configuration>(8);

  constructor(
    private readonly options: ProviderOptions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async configurationFor(settings: ProviderSettings): Promise<client.Configuration> {
    const key = hashSecret(JSON.stringify(settings));
    return this.configurations.get(key, this.now().getTime(), this.options.refreshMs ?? 10 * 60_000, () => this.discover(settings));
  }

  private async discover(settings: ProviderSettings): Promise<client.Configuration> {
    try {
      const url = new URL(settings.discoverUrl);
      const insecure = url.protocol === 'http:';
      if (insecure && !this.options.allowHttp) {
        throw new ProviderUnavailable(`The discovery URL ${url.origin} is plain http; an identity provider must be reached over https.`);
      }
      return await client.discovery(
        url,
        settings.clientId,
        { id_token_signed_response_alg: settings.idTokenSigningAlgorithm },
        // client_secret_basic: OpenID Connect's default token endpoint authentication, which every provider takes.
        client.ClientSecretBasic(settings.clientSecret),
        {
          [client.customFetch]: providerFetch(this.options.timeoutMs ?? 3_000),
          execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
        },
      );
    } catch (error) {
      if (error instanceof ProviderUnavailable) throw error;
      throw new ProviderUnavailable(`The identity provider's discovery document at ${settings.discoverUrl} could not be read (${describe(error)}).`, { cause: error });
    }
  }
}

/**
 * Every request to the provider ends in time for the request's own writes: at most `maxMs`,
 * and never past the point where the request's writes may no longer start (lib/time-budget.ts:
 * WRITE_BUDGET_MS before the function's end, plus a moment for the reads in between). A slow
 * provider then refuses the login with "try again" instead of a session write refused as too late.
 */
function providerFetch(maxMs: number): client.CustomFetch {
  return (url, options) => {
    const left = timeLeft();
    const ms = left === undefined ? maxMs : Math.max(0, Math.min(maxMs, left - WRITE_BUDGET_MS - READS_MS));
    const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);
    return fetch(url, { ...options, signal } as RequestInit);
  };
}

/** What a callback reads after the provider answers, before its first write. */
const READS_MS = 500;

/** A failure's message with its cause's, as openid-client nests the network error under a generic one. */
export function describe(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current instanceof Error && parts.length < 3; current = current.cause) parts.push(current.message);
  return parts.join(': ') || String(error);
}
