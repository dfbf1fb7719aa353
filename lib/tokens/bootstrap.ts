import { ALL, hashSecret, parseSecret, tokenIdOf, type ApiToken, type ApiTokenType } from './model.js';
import type { ApiTokenService } from './service.js';

export interface BootstrapTokens {
  admin: string[];
  client: string[];
  /** Optional so callers that bootstrap no frontend token need not say so. */
  frontend?: string[];
}

export interface BootstrapResult {
  inserted: number;
  kept: number;
}

/**
 * Applies `INIT_ADMIN_API_TOKENS`, `INIT_CLIENT_API_TOKENS` and `INIT_FRONTEND_API_TOKENS`. Each secret is stored as given
 * (hashed), and applying the same list again changes nothing. A malformed secret stops the
 * start with a message naming it, as in Unleash, rather than leaving a token that never works.
 */
export async function applyBootstrapTokens(tokens: ApiTokenService, lists: BootstrapTokens): Promise<BootstrapResult> {
  const result: BootstrapResult = { inserted: 0, kept: 0 };
  const entries: Array<[ApiTokenType, string]> = [
    ...lists.admin.map((secret): [ApiTokenType, string] => ['admin', secret]),
    ...lists.client.map((secret): [ApiTokenType, string] => ['client', secret]),
    ...(lists.frontend ?? []).map((secret): [ApiTokenType, string] => ['frontend', secret]),
  ];
  for (const [type, secret] of entries) {
    const scope = parseBootstrapSecret(type, secret);
    const inserted = await tokens.insertKnownSecret(secret, { tokenName: type, type, ...scope });
    if (inserted) result.inserted += 1;
    else result.kept += 1;
  }
  return result;
}

/** The public id of the token a bootstrap secret makes: a prefix of its hash, never the secret. */
export function bootstrapTokenId(secret: string): string {
  return tokenIdOf(hashSecret(secret));
}

export type BootstrapRemoval = 'removed' | 'absent' | 'not-bootstrap';

/**
 * Removes the admin token an earlier bootstrap stored, named by its id (the cloud bootstrap
 * keeps that id as its custom resource's physical id). Only a token the bootstrap itself
 * writes is removed: an admin token named `admin` with scope `*:*`. Tokens people create have
 * ids of their own random secrets, so they never match; the check keeps it so even then.
 */
export async function removeBootstrapToken(tokens: ApiTokenService, tokenId: string): Promise<BootstrapRemoval> {
  const token = (await tokens.list()).find((candidate) => candidate.tokenId === tokenId);
  if (!token) return 'absent';
  if (!isBootstrapAdminToken(token)) return 'not-bootstrap';
  await tokens.delete(tokenId);
  return 'removed';
}

function isBootstrapAdminToken(token: ApiToken): boolean {
  return (
    token.type === 'admin' &&
    token.tokenName === 'admin' &&
    token.environment === ALL &&
    token.projects.length === 1 &&
    token.projects[0] === ALL
  );
}

function parseBootstrapSecret(type: ApiTokenType, secret: string): { environment: string; projects: string[] } {
  const parsed = parseSecret(secret);
  const variable = `INIT_${type === 'backend' ? 'client' : type}_API_TOKENS`.toUpperCase();
  const shown = `${secret.slice(0, Math.min(secret.length, secret.indexOf('.') + 1 || 8))}…`;
  if (!parsed) {
    throw new Error(`${variable}: the token ${shown} is not in the form <project>:<environment>.<secret>`);
  }
  if (type === 'admin' && (parsed.project !== ALL || parsed.environment !== ALL)) {
    throw new Error(`${variable}: admin tokens must start with *:* (got ${shown})`);
  }
  if (type !== 'admin' && parsed.environment === ALL) {
    throw new Error(`${variable}: ${type} tokens must name one environment (got ${shown})`);
  }
  if (parsed.project === '[]') {
    throw new Error(`${variable}: a bootstrap token cannot list several projects (got ${shown}); use * or one project`);
  }
  return { environment: parsed.environment, projects: [parsed.project] };
}
