import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { ScopeCatalog } from '../projects/scope-catalog.js';
import {
  ALL,
  checkImportedSecret,
  checkScope,
  formatSecret,
  hashSecret,
  isTokenId,
  tokenIdOfListedSecret,
  normaliseProjects,
  secretHintOf,
  tokenIdOf,
  type ApiToken,
  type ApiTokenType,
  type Caller,
} from './model.js';
import { authenticationRequiredMessage, type Authentication, type TokenAuthenticator } from './authenticator.js';
import type { ApiTokenStore } from './store.js';

export { authenticationRequiredMessage };

export interface NewApiToken {
  tokenName: string;
  type: ApiTokenType;
  environment?: string | undefined;
  projects?: string[] | undefined;
  expiresAt?: string | undefined;
  /** A secret brought from another server; left out, a new one is made. */
  secret?: string | undefined;
}

export interface CreatedApiToken {
  secret: string;
  token: ApiToken;
}

export class ApiTokenService {
  constructor(
    private readonly store: ApiTokenStore,
    private readonly catalog: ScopeCatalog,
    private readonly authenticator: Pick<TokenAuthenticator, 'authenticate' | 'forget'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Resolves an `Authorization` header value to a caller, or refuses with 401 (cached per process). */
  authenticate(authorization: string | undefined): Promise<Authentication> {
    return this.authenticator.authenticate(authorization);
  }

  async create(input: NewApiToken): Promise<CreatedApiToken> {
    const environment = input.environment ?? (input.type === 'admin' ? ALL : 'development');
    const projects = normaliseProjects(input.projects ?? [ALL]);
    checkScope({ type: input.type, environment, projects });
    await this.checkScopeExists(environment, projects);
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= this.now().getTime()) {
      throw new ValidationFailed('expiresAt: must be in the future');
    }
    if (input.secret !== undefined) checkImportedSecret(input.secret, { projects, environment });
    const secret = input.secret ?? formatSecret(projects, environment);
    const token = this.recordFor(secret, { ...input, environment, projects });
    // A made secret never collides; a brought one may already be here (a second run of a migration).
    if (!(await this.insert(token))) throw new Conflict('secret: a token with this secret exists');
    return { secret, token };
  }

  list(): Promise<ApiToken[]> {
    return this.store.list();
  }

  /** Deletes by secret, or by tokenId for a secret nobody kept. Idempotent, as in Unleash. */
  /**
   * Deletes the token a value names: its id, the secret a list answers for it (which the admin UI
   * sends back), or the secret itself. A value that names no token deletes nothing, as in Unleash.
   */
  async delete(secretOrTokenId: string): Promise<void> {
    const tokenId = isTokenId(secretOrTokenId) ? secretOrTokenId : tokenIdOfListedSecret(secretOrTokenId);
    if (tokenId) {
      const token = await this.store.findById(tokenId);
      if (token) await this.deleteByHash(token.secretHash);
      return;
    }
    await this.deleteByHash(hashSecret(secretOrTokenId));
  }

  /**
   * Deletes a token of one project, as the project's API access page does: a value that names no
   * token is a 404, and a token that is not that project's alone (every project, or several) a
   * 400, so a project's page never deletes what other projects use.
   */
  async deleteOfProject(projectId: string, secretOrTokenId: string): Promise<void> {
    const token = await this.find(secretOrTokenId);
    if (token === undefined) throw new NotFound(`token: no API token of project ${projectId} is named by this value`);
    if (token.projects.length !== 1 || token.projects[0] !== projectId) {
      throw new ValidationFailed(`token: this token is not project ${projectId}'s alone; delete it from the API access page`);
    }
    await this.deleteByHash(token.secretHash);
  }

  private async find(secretOrTokenId: string): Promise<ApiToken | undefined> {
    const tokenId = isTokenId(secretOrTokenId) ? secretOrTokenId : tokenIdOfListedSecret(secretOrTokenId);
    return tokenId ? this.store.findById(tokenId) : this.store.findByHash(hashSecret(secretOrTokenId));
  }

  /** Stores a token whose secret was chosen elsewhere (bootstrap); an existing one is kept. */
  async insertKnownSecret(secret: string, scope: NewApiToken & { environment: string; projects: string[] }): Promise<boolean> {
    checkScope(scope);
    await this.checkScopeExists(scope.environment, scope.projects);
    return this.insert(this.recordFor(secret, scope));
  }

  /**
   * This process stops accepting a deleted secret at once; the store moves the token-change
   * counter in the same transaction, so every other instance does within its check interval.
   */
  private async deleteByHash(secretHash: string): Promise<void> {
    await this.store.delete(secretHash);
    this.authenticator.forget(secretHash);
  }

  /** A secret this process had looked up as unknown becomes usable at once. */
  private async insert(token: ApiToken): Promise<boolean> {
    const inserted = await this.store.insert(token);
    this.authenticator.forget(token.secretHash);
    return inserted;
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
