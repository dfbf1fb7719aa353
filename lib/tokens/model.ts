import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ValidationFailed } from '../errors.js';
import type { Caller } from '../http/caller.js';

/**
 * Unleash's token types: `client` and `backend` (the same since Unleash 7) for server-side SDKs on
 * /api/client, `frontend` for browser and mobile SDKs on /api/frontend, `admin` for everything.
 */
export type ApiTokenType = Caller['type'];

/** Everything known about a token except its secret, of which only a hash is kept. */
export interface ApiToken {
  secretHash: string;
  /** Public handle: a prefix of the hash, enough to name the token but not to use it. */
  tokenId: string;
  /**
   * The secret's scope prefix. Records written before the hint was cut to the prefix also hold
   * six random characters here, so lists show `listedSecretOf` instead.
   */
  secretHint: string;
  tokenName: string;
  type: ApiTokenType;
  environment: string;
  /** `['*']` means every project. */
  projects: string[];
  createdAt: string;
  expiresAt: string | null;
  seenAt: string | null;
}

/** Who is calling: a token's caller is the edge's (lib/http/caller.ts). */
export type { Caller } from '../http/caller.js';

export const ALL = '*';
const MULTI_PROJECT_MARKER = '[]';
const TOKEN_ID_LENGTH = 16;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function tokenIdOf(secretHash: string): string {
  return secretHash.slice(0, TOKEN_ID_LENGTH);
}

export function isTokenId(value: string): boolean {
  return new RegExp(`^[0-9a-f]{${TOKEN_ID_LENGTH}}$`).test(value);
}

/** Hashes are compared in constant time, so response timing says nothing about a near miss. */
export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Unleash's secret format: `<project | * | []>:<environment | *>.<random>`. */
export function formatSecret(projects: string[], environment: string): string {
  return `${scopePrefixOf(projects, environment)}${randomBytes(28).toString('hex')}`;
}

/** The part every secret of a scope starts with: `<project | * | []>:<environment | *>.`. */
function scopePrefixOf(projects: string[], environment: string): string {
  const projectPart = projects.length === 1 ? (projects[0] as string) : MULTI_PROJECT_MARKER;
  return `${projectPart}:${environment}.`;
}

/**
 * What a secret brought from another server must look like: its scope prefix, then at least
 * eight characters without spaces or the mask's asterisk. That takes Unleash's secrets
 * (`default:production.<56 hex>`), Unleash 8's `v2_<selector>_<secret>` form, and the bootstrap
 * secrets people chose (`*:*.<anything>`), and refuses a value a list answered in place of one.
 */
const IMPORTED_SECRET_REST = /^[\x21-\x29\x2b-\x7e]{8,}$/;

/** Refuses a secret chosen elsewhere whose prefix names another scope than the token's. */
export function checkImportedSecret(secret: string, scope: Pick<TokenScope, 'projects' | 'environment'>): void {
  const prefix = scopePrefixOf(scope.projects, scope.environment);
  if (!secret.startsWith(prefix)) {
    throw new ValidationFailed(`secret: must start with ${prefix}, the token's project and environment (Unleash's secret format)`);
  }
  if (!IMPORTED_SECRET_REST.test(secret.slice(prefix.length))) {
    throw new ValidationFailed(`secret: after ${prefix} must come at least 8 characters, without spaces or *`);
  }
}

/** Stands for the random part of a secret wherever one is listed; not a hex character, so never mistaken for one. */
const SECRET_MASK = '****';

/**
 * What a list shows in place of a secret: its scope prefix, as Unleash shows a prefix of the
 * token and not of the secret. Built from the token's scope rather than from the stored hint,
 * so records written when the hint held six random characters do not show them either.
 */
export function maskedSecretOf(token: Pick<ApiToken, 'projects' | 'environment'>): string {
  return `${scopePrefixOf(token.projects, token.environment)}${SECRET_MASK}`;
}

/**
 * The `secret` a token list answers: the masked secret followed by the token's id
 * (`default:production.****0f1e2d3c4b5a6978`). Unleash's admin UI deletes a token by sending the
 * listed `secret` back to `DELETE /api/admin/api-tokens/{token}`, and copies it from the list, so
 * the value must name exactly one token and never be the secret: the id is a hash prefix of the
 * secret's hash, already listed as `tokenId`, and the mask is not a hex character, so the value
 * can never authenticate.
 */
export function listedSecretOf(token: Pick<ApiToken, 'projects' | 'environment' | 'tokenId'>): string {
  return `${maskedSecretOf(token)}${token.tokenId}`;
}

/** The token id a listed secret names (`listedSecretOf`), or undefined when the value is not one. */
export function tokenIdOfListedSecret(value: string): string | undefined {
  const tokenId = LISTED_SECRET.exec(value)?.[1];
  return tokenId !== undefined && isTokenId(tokenId) ? tokenId : undefined;
}

/** `<project>:<environment>.****<token id>`, the scope read as `parseSecret` reads a secret's. */
const LISTED_SECRET = /^[^:]+:[^.]+\.\*{4}(.+)$/;

export interface ParsedSecret {
  project: string;
  environment: string;
}

export function parseSecret(secret: string): ParsedSecret | undefined {
  const match = /^([^:]+):([^.]+)\.(.+)$/.exec(secret);
  if (!match) return undefined;
  return { project: match[1] as string, environment: match[2] as string };
}

/** The hint kept with a record: the secret's scope prefix and not one character of what follows it. */
export function secretHintOf(secret: string): string {
  const dot = secret.indexOf('.');
  return `${dot < 0 ? '' : secret.slice(0, dot + 1)}${SECRET_MASK}`;
}

export interface TokenScope {
  type: ApiTokenType;
  environment: string;
  projects: string[];
}

/** Unleash's scope rules: admin tokens see everything; SDK tokens are bound to one environment. */
export function checkScope(scope: TokenScope): void {
  if (scope.type === 'admin') {
    if (scope.environment !== ALL) throw new ValidationFailed('environment: Admin token cannot be scoped to single environment');
    if (scope.projects.length !== 1 || scope.projects[0] !== ALL) {
      throw new ValidationFailed('projects: Admin token cannot be scoped to single project');
    }
    return;
  }
  if (scope.environment === ALL) {
    throw new ValidationFailed(`environment: ${capitalize(scope.type)} token cannot be scoped to all environments`);
  }
}

/** A list that names `*` means every project. */
export function normaliseProjects(projects: string[]): string[] {
  return projects.includes(ALL) ? [ALL] : [...new Set(projects)];
}

export function isExpired(token: Pick<ApiToken, 'expiresAt'>, now: Date): boolean {
  return token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime();
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
