import { Conflict, NotFound, PermissionDenied, ValidationFailed } from '../errors.js';
import { changeEvent } from '../events/model.js';
import { hashSecret } from '../tokens/model.js';
import {
  DESCRIPTION_MAX_LENGTH, hasExpired, newPersonalTokenSecret, PERSONAL_TOKEN_LIMIT, type PersonalAccessToken,
} from './model.js';
import type { PersonalTokenStore } from './store.js';

export interface NewPersonalToken {
  description: string;
  expiresAt: string;
}

/**
 * A person's own personal access tokens, as Unleash keeps them: at most ten, each with a
 * description of its own and an expiry in the future; the secret is answered once, at creation,
 * and only its hash is stored. Every token belongs to the user who made it: nobody lists or
 * deletes another's.
 */
export class PersonalTokenService {
  constructor(
    private readonly store: PersonalTokenStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(userId: number): Promise<PersonalAccessToken[]> {
    return this.store.listOf(userId);
  }

  async create(userId: number, input: NewPersonalToken, actor: string): Promise<PersonalAccessToken & { secret: string }> {
    const description = input.description.trim();
    if (description === '') throw new ValidationFailed('description: PAT description cannot be empty.');
    if (description.length > DESCRIPTION_MAX_LENGTH) throw new ValidationFailed(`description: at most ${DESCRIPTION_MAX_LENGTH} characters`);
    const now = this.now();
    const expiresAt = new Date(input.expiresAt).toISOString();
    if (hasExpired(expiresAt, now)) throw new ValidationFailed('expiresAt: The expiry date should be in future.');
    const secret = newPersonalTokenSecret();
    const token = { id: await this.store.nextId(), userId, description, expiresAt, createdAt: now.toISOString() };
    const refusal = await this.store.create(
      { ...token, secretHash: hashSecret(secret) }, PERSONAL_TOKEN_LIMIT, changeEvent('pat-created', { changes: [`pat:${token.id}`, `user:${userId}`] }, actor),
    );
    if (refusal === 'limit') throw new PermissionDenied('PERSONAL_ACCESS_TOKENS', `Too many PATs (${PERSONAL_TOKEN_LIMIT}) already exist for this user.`);
    if (refusal === 'description') throw new Conflict('PAT description already exists.');
    return { ...token, seenAt: null, secret };
  }

  async delete(userId: number, tokenId: number, actor: string): Promise<void> {
    const event = changeEvent('pat-deleted', { changes: [`pat:${tokenId}`, `user:${userId}`] }, actor);
    if (!(await this.store.delete(userId, tokenId, event))) throw new NotFound('No PAT found.');
  }
}
