import type { User, UserInput } from '../users/model.js';

/** What the signup service needs of users: creating one through a token, and listing them. */
export interface SignupUsers {
  list(): Promise<User[]>;
  create(input: UserInput, actor: string, signupToken: string | null): Promise<User>;
}

/** What signup tokens read of other resources. */
export interface SignupTokenPorts {
  users: SignupUsers;
}
