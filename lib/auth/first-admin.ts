import { randomBytes } from 'node:crypto';
import { ROOT_ROLE } from '../roles/model.js';
import type { UserService } from '../users/service.js';
import { checkPasswordRules } from '../users/password.js';

export interface FirstAdminOutcome {
  /** Whether this call made the admin (false: the table already had users). */
  created: boolean;
  /** The generated password, to be shown once; absent when it was configured or nothing was made. */
  generatedPassword?: string;
}

/**
 * Unleash's first admin user: made only on a table with no user at all, with the username
 * UNLEASH_DEFAULT_ADMIN_USERNAME (`admin`) and the password UNLEASH_DEFAULT_ADMIN_PASSWORD.
 * Unleash falls back to a well-known password; here a random one is generated instead and
 * handed back once, for whoever started the service to read.
 */
export async function ensureFirstAdmin(
  users: Pick<UserService, 'any' | 'create'>,
  settings: { username: string; password: string | undefined },
): Promise<FirstAdminOutcome> {
  if (await users.any()) return { created: false };
  const generatedPassword = settings.password === undefined ? generatePassword() : undefined;
  const password = settings.password ?? (generatedPassword as string);
  await users.create({ username: settings.username, name: settings.username, rootRole: ROOT_ROLE.Admin, password }, 'system', null, false);
  return generatedPassword === undefined ? { created: true } : { created: true, generatedPassword };
}

/** 144 random bits, in a form that also meets the password rules (so the admin can keep it). */
export function generatePassword(): string {
  for (;;) {
    const candidate = `${randomBytes(18).toString('base64url')}-7a`;
    try {
      checkPasswordRules(candidate);
      return candidate;
    } catch {
      // A draw without an upper-case letter or with a character three times in a row: draw again.
    }
  }
}
