import { NotFound, ValidationFailed } from '../errors.js';
import { ROOT_ROLE } from '../roles/model.js';
import type { User } from '../users/model.js';
import type { UserInput } from '../users/model.js';
import { cappedExpiry, isOpen, newSecret, signupUrl, type SignupToken } from './model.js';
import type { SignupUsers } from './ports.js';
import type { SignupTokenChanges, SignupTokenStore } from './store.js';

/** A token as the API shows it: `enabled` reads false once expired, with the users who signed up. */
export interface SignupTokenView {
  token: SignupToken;
  enabled: boolean;
  url: string;
  users: User[];
}


export type SignupInput = Omit<UserInput, 'rootRole'>;

export class SignupTokenService {
  constructor(
    private readonly store: SignupTokenStore,
    private readonly users: SignupUsers,
    private readonly unleashUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<SignupTokenView[]> {
    const [tokens, users] = await Promise.all([this.store.list(), this.users.list()]);
    return tokens.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((token) => this.view(token, users));
  }

  async get(secret: string): Promise<SignupTokenView> {
    const [token, users] = await Promise.all([this.find(secret), this.users.list()]);
    return this.view(token, users);
  }

  async create(input: { name: string; expiresAt: string }, by: string): Promise<SignupTokenView> {
    const now = this.now();
    const token: SignupToken = {
      secret: newSecret(),
      name: input.name,
      enabled: true,
      expiresAt: cappedExpiry(new Date(input.expiresAt), now).toISOString(),
      createdAt: now.toISOString(),
      createdBy: by,
      roleId: ROOT_ROLE.Viewer,
    };
    if (!(await this.store.insert(token))) throw new Error('A new signup token secret collided with a stored one');
    return this.view(token, []);
  }

  /** E20: sets `enabled` and/or `expiresAt`; the new expiry is not capped, as in Unleash. */
  async update(secret: string, changes: SignupTokenChanges): Promise<SignupTokenView> {
    if (changes.enabled === undefined && changes.expiresAt === undefined) {
      throw new ValidationFailed('expiresAt: give expiresAt, enabled or both');
    }
    const expiresAt = changes.expiresAt === undefined ? undefined : new Date(changes.expiresAt).toISOString();
    // The users are read before the write: once the change is stored nothing may fail.
    const users = await this.users.list();
    const token = await this.store.update(secret, { enabled: changes.enabled, expiresAt });
    if (!token) throw tokenNotFound();
    return this.view(token, users);
  }

  /**
   * Creates a user with the token's role. The user's write re-checks that the token is open in
   * the same transaction, so a token disabled meanwhile admits nobody.
   */
  async signUp(secret: string, input: SignupInput, actor: string): Promise<User> {
    const token = await this.find(secret);
    if (!isOpen(token, this.now())) throw new ValidationFailed('token: this signup link is disabled or has expired');
    return this.users.create({ ...input, rootRole: token.roleId }, actor, token.secret);
  }

  /** Whether people can sign up through this token now (Unleash's public invite validation). */
  async isOpen(secret: string): Promise<boolean> {
    const token = await this.store.get(secret);
    return token !== undefined && isOpen(token, this.now());
  }

  private async find(secret: string): Promise<SignupToken> {
    const token = await this.store.get(secret);
    if (!token) throw tokenNotFound();
    return token;
  }

  private view(token: SignupToken, users: User[]): SignupTokenView {
    return {
      token,
      enabled: isOpen(token, this.now()),
      url: signupUrl(this.unleashUrl, token.secret),
      users: users.filter((user) => user.signupToken === token.secret),
    };
  }
}

const tokenNotFound = (): NotFound => new NotFound('Could not find public signup token.');
