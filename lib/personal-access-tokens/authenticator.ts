import { log } from '../log.js';
import { hashSecret } from '../tokens/model.js';
import { hasExpired, PERSONAL_TOKEN_PREFIX, SEEN_WRITE_INTERVAL_MS } from './model.js';
import type { PersonalTokenStore } from './store.js';

/**
 * A personal access token in `Authorization` → the user it belongs to. Read on every request,
 * one strongly consistent GetItem by the secret's hash and nothing remembered, so a deleted
 * token stops working at once on every container; an expired one is refused from its expiry on.
 * The person's root role is then read as for a session (lib/sessions/service.ts), so the user's
 * deletion or a changed role holds at once too.
 */
export class PersonalTokenAuthenticator {
  constructor(
    private readonly store: Pick<PersonalTokenStore, 'findBySecretHash' | 'markSeen'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async userIdOf(secret: string): Promise<number | undefined> {
    if (!secret.startsWith(PERSONAL_TOKEN_PREFIX)) return undefined;
    const secretHash = hashSecret(secret);
    const grant = await this.store.findBySecretHash(secretHash);
    const now = this.now();
    if (!grant || hasExpired(grant.expiresAt, now)) return undefined;
    // seenAt is written at most once a minute per token, whichever container sees it: the read above carries it.
    if (grant.seenAt === null || now.getTime() - Date.parse(grant.seenAt) >= SEEN_WRITE_INTERVAL_MS) {
      await this.store.markSeen(secretHash, now.toISOString()).catch((error: unknown) => {
        log.warn('Could not record when a personal access token was last seen', { tokenId: grant.tokenId, error: String(error) });
      });
    }
    return grant.userId;
  }
}
