import { ExpiringPromises } from '../bounded-cache.js';
import type { AppConfig } from '../config.js';
import type { OriginSecretSource } from '../http/client-address.js';
import { readSecretString } from './secret-source.js';

/** How long a function trusts the secret it read: a new value reaches every warm function within this. */
export const ORIGIN_SECRET_REFRESH_MS = 5 * 60_000;

/**
 * The admin UI distribution's origin secret (lib/http/client-address.ts): `CLOUDFRONT_ORIGIN_SECRET`
 * as given (tests; the local runtime has none unless told), or the Secrets Manager secret named by
 * `CLOUDFRONT_ORIGIN_SECRET_ARN`, read when a request first carries the header and again after
 * ORIGIN_SECRET_REFRESH_MS, so a rotated value is taken up without a new deployment of the
 * function. A failed re-read keeps the value read before; a failed first read is tried again
 * by the next request. None configured: undefined, and every request is its connection's.
 */
export function originSecretSource(
  config: Pick<AppConfig, 'cloudfrontOriginSecret' | 'cloudfrontOriginSecretArn'>,
  read: (arn: string) => Promise<string> = readSecretString,
  now: () => number = Date.now,
): OriginSecretSource | undefined {
  if (config.cloudfrontOriginSecret) {
    const value = config.cloudfrontOriginSecret;
    return () => Promise.resolve(value);
  }
  const arn = config.cloudfrontOriginSecretArn;
  if (!arn) return undefined;
  const reads = new ExpiringPromises<string, string>(1);
  let lastRead: string | undefined;
  return () => reads.get(arn, now(), ORIGIN_SECRET_REFRESH_MS, async () => {
    try {
      lastRead = await read(arn);
    } catch (error) {
      // Secrets Manager unreachable: the value read before, tried again after another while.
      if (lastRead === undefined) throw error;
    }
    return lastRead;
  });
}
