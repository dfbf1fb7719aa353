/**
 * API tokens with their secrets, so every SDK keeps its token and changes only its URL. Unleash
 * lists each token's secret to an admin; this service takes a known secret on create (and keeps
 * only its hash). The other way round does not work: this service never shows a secret again,
 * and Unleash's API makes its own secret whatever it is sent, so a token copied into Unleash gets
 * a token of the same name and scope with a new secret, listed for a person to hand to the SDKs;
 * admin tokens do not go there at all (Unleash 7's API makes none).
 */
import { createHash } from 'node:crypto';
import type { Kind, MigrationContext, Step, TokenPair } from '../model.js';

interface Token {
  secret: string;
  tokenId?: string;
  tokenName: string;
  type: string;
  environment: string;
  project?: string;
  projects?: string[];
  expiresAt?: string | null;
}

/** Unleash 7 lists a backend token as `client`: the same kind of token. */
const typeOf = (token: Token) => (token.type.toLowerCase() === 'backend' ? 'client' : token.type.toLowerCase());
const projectsOf = (token: Token) => [...(token.projects ?? (token.project ? [token.project] : ['*']))].sort();
const scopeOf = (token: Token) => `${token.tokenName}|${typeOf(token)}|${token.environment}|${projectsOf(token).join(',')}`;
/** A secret a list shows masked is not a secret (this service lists a prefix, a mask and the token's id). */
const readable = (secret: string) => !secret.includes('****');
/** This service's public token id: a prefix of the secret's SHA-256, so a secret can be found in its list. */
const tokenIdOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16);

const pairOf = (token: Token, fromSecret: string, toSecret: string): TokenPair => ({
  tokenName: token.tokenName, type: typeOf(token), environment: token.environment, projects: projectsOf(token),
  fromSecret, toSecret, sameSecret: fromSecret === toSecret,
});

export const tokens: Kind = {
  name: 'API tokens',
  async plan(context) {
    const source = (await context.from.request<{ tokens: Token[] }>('GET', '/api/admin/api-tokens')).tokens;
    const target = (await context.to.request<{ tokens: Token[] }>('GET', '/api/admin/api-tokens')).tokens;
    // This service lists a token id beside each masked secret; Unleash lists the secrets themselves.
    const targetTakesSecrets = target.some((known) => known.tokenId !== undefined);
    const steps: Step[] = [];
    const now = Date.now();
    for (const token of source) {
      const key = `${token.tokenName} (${typeOf(token)}, ${token.environment})`;
      const step = (action: Step['action'], detail?: string, run?: Step['run']) => steps.push({ kind: 'API tokens', key, action, ...(detail ? { detail } : {}), ...(run ? { run } : {}) });
      if (token.expiresAt && Date.parse(token.expiresAt) <= now) {
        step('skip', 'expired');
        continue;
      }
      if (typeOf(token) === 'admin' && !targetTakesSecrets) {
        step('skip', `${context.to.label} makes no admin API tokens through its API (Unleash 7 does not): use a personal access token or a service account there`);
        continue;
      }
      const known = readable(token.secret) ? target.find((t) => t.secret === token.secret || t.tokenId === tokenIdOf(token.secret)) : undefined;
      if (known) {
        context.tokenPairs.push(pairOf(token, token.secret, token.secret));
        step('same');
        continue;
      }
      // A token of the same name and scope is the copy an earlier run made where the secret
      // could not travel (a target that makes its own, a source that shows none).
      const sameScope = target.find((t) => scopeOf(t) === scopeOf(token) && (!readable(token.secret) || readable(t.secret)));
      if (sameScope) {
        if (readable(token.secret)) context.tokenPairs.push(pairOf(token, token.secret, sameScope.secret));
        step('skip', `${context.to.label} has a token of this name and scope with another secret (an earlier run's copy, or its own)`);
        continue;
      }
      step('create', readable(token.secret) ? undefined : `${context.from.label} shows no secret (it keeps only a hash): a new one is made`, () => copyToken(token, context));
    }
    return steps;
  },
};

async function copyToken(token: Token, context: MigrationContext): Promise<void> {
  const secret = readable(token.secret) ? token.secret : undefined;
  const created = await context.to.request<Token>('POST', '/api/admin/api-tokens', {
    ...(secret ? { secret } : {}),
    tokenName: token.tokenName,
    type: token.type,
    ...(typeOf(token) === 'admin' ? {} : { environment: token.environment, projects: projectsOf(token) }),
    ...(token.expiresAt ? { expiresAt: token.expiresAt } : {}),
  });
  if (secret) context.tokenPairs.push(pairOf(token, secret, created.secret));
  if (created.secret !== token.secret) {
    context.needsPerson.push(`API token ${token.tokenName} (${typeOf(token)}, ${token.environment}): ${context.to.url} made its own secret; give the SDKs that used the old one ${created.secret}`);
  }
}
