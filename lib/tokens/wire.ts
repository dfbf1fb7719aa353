import type { ApiTokenWire } from './schemas.js';
import { type ApiToken } from './model.js';

/** `secret` is the whole secret only in the answer to a create; lists show its scope prefix. */
export function toApiTokenWire(token: ApiToken, secret: string): ApiTokenWire {
  return {
    secret,
    tokenId: token.tokenId,
    tokenName: token.tokenName,
    username: token.tokenName,
    type: token.type,
    environment: token.environment,
    project: token.projects.join(','),
    projects: token.projects,
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    seenAt: token.seenAt,
    alias: null,
  };
}
