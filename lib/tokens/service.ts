import { AuthenticationRequired, ValidationFailed } from '../errors.js';
import type { ScopeCatalog } from '../projects/scope-catalog.js';
import {
  ALL,
  checkScope,
  formatSecret,
  hashSecret,
  hashesMatch,
  isExpired,
  isTokenId,
  normaliseProjects,
  secretHintOf,
  tokenIdOf,
  type ApiToken,
  type ApiTokenType,
  type Caller,
} from './model.js';
import type { ApiTokenStore } from './store.js';

export interface NewApiToken {
  tokenName: string;
  type: ApiTokenType;
  environment?: string | undefined;
  projects?: string[] | undefined;
  expiresAt?: string | undefined;
}

export interface CreatedApiToken {
  secret: string;
  token: ApiToken;
}

/** Shown when a request has no usable token; it names the header and the login path. */
export const authenticationRequiredMessage = (baseUriPath: string): string =>
  'You must log in to use this API. Send an API token in the Authorization header, ' +
  `or log in at ${baseUriPath}/auth/simple/login`;

export class ApiTokenService {
  constructor(
    private readonly store: ApiTokenStore,
    private readonly catalog: ScopeCatalog,
    private readonly baseUriPath: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Resolves an `Authorization` header value to a caller, or refuses with 401. */
  async authenticate(authorization: string | undefined): Promise<Caller> {
    const secret = authorization?.replace(/^bearer\s+/i, '').trim();
    if (!secret) throw new AuthenticationRequired(authenticationRequiredMessage(this.baseUriPath));
    const secretHash = hashSecret(secret);
    const token = await this.store.findByHash(secretHash);
    if (!token || !hashesMatch(token.secretHash, secretHash) || isExpired(token, this.now())) {
      throw new AuthenticationRequired(
        `${authenticationRequiredMessage(this.baseUriPath)}. The token you sent is unknown or has expired.`,
      );
    }
    return { tokenName: token.tokenName, type: token.type, environment: token.environment, projects: token.projects };
  }

  async create(input: NewApiToken): Promise<CreatedApiToken> {
    const environment = input.environment ?? (input.type === 'admin' ? ALL : 'development');
    const projects = normaliseProjects(input.projects ?? [ALL]);
    checkScope({ type: input.type, environment, projects });
    await this.checkScopeExists(environment, projects);
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= this.now().getTime()) {
      throw new ValidationFailed('expiresAt: must be in the future');
    }
    const secret = formatSecret(projects, environment);
    const token = this.recordFor(secret, { ...input, environment, projects });
    await this.store.insert(token);
    return { secret, token };
  }

  list(): Promise<ApiToken[]> {
    return this.store.list();
  }

  /** Deletes by secret, or by tokenId for a secret nobody kept. Idempotent, as in Unleash. */
  async delete(secretOrTokenId: string): Promise<void> {
    if (isTokenId(secretOrTokenId)) {
      const token = await this.store.findById(secretOrTokenId);
      if (token) await this.store.delete(token.secretHash);
      return;
    }
    await this.store.delete(hashSecret(secretOrTokenId));
  }

  /** Stores a token whose secret was chosen elsewhere (bootstrap); an existing one is kept. */
  async insertKnownSecret(secret: string, scope: NewApiToken & { environment: string; projects: string[] }): Promise<boolean> {
    checkScope(scope);
    await this.checkScopeExists(scope.environment, scope.projects);
    return this.store.insert(this.recordFor(secret, scope));
  }

  private recordFor(secret: string, scope: NewApiToken & { environment: string; projects: string[] }): ApiToken {
    const secretHash = hashSecret(secret);
    return {
      secretHash,
      tokenId: tokenIdOf(secretHash),
      secretHint: secretHintOf(secret),
      tokenName: scope.tokenName,
      type: scope.type,
      environment: scope.environment,
      projects: scope.projects,
      createdAt: this.now().toISOString(),
      expiresAt: scope.expiresAt ?? null,
      seenAt: null,
    };
  }

  private async checkScopeExists(environment: string, projects: string[]): Promise<void> {
    if (environment !== ALL && !(await this.catalog.environmentExists(environment))) {
      throw new ValidationFailed(`environment: Environment=${environment} does not exist`);
    }
    for (const project of projects) {
      if (project !== ALL && !(await this.catalog.projectExists(project))) {
        throw new ValidationFailed(`projects: Project=${project} does not exist`);
      }
    }
  }
}
