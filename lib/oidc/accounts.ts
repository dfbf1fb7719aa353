import { Conflict } from '../errors.js';
import { log } from '../log.js';
import type { SsoIdentity, User } from '../users/model.js';
import type { LinkOutcome, UserService } from '../users/service.js';
import type { OidcSettings } from './model.js';

/** A login the service refuses: the person is sent back to the login page, which shows `message`. */
export class LoginRefused extends Error {}

/** The actor change events name for what a login does by itself (a user created or linked, groups synced). */
export const SSO_ACTOR = 'oidc-login';

type AccountSettings = Pick<OidcSettings, 'autoCreate' | 'emailDomains' | 'defaultRootRole' | 'defaultRootRoleId' | 'trustEmailClaim'>;

/** What linking a provider's identity to a person needs of users. */
export type SsoUsers = Pick<UserService, 'findByIdentity' | 'findByEmail' | 'createLinked' | 'linkIdentity'>;

/**
 * Which account a verified ID token logs in to. An account is found by the provider's subject
 * (`iss` + `sub`) alone, linked at its first SSO login; an e-mail matters only then, and only one
 * the provider vouches for, naming an account whose e-mail someone other than its typist vouched
 * for. An e-mail is anyone's to type (an invite signup asks for no proof), so matching by it on
 * every login would hand a person's SSO login, and their groups, to whoever typed their address.
 */
export class SsoAccounts {
  constructor(private readonly users: SsoUsers) {}

  async accountFor(claims: Record<string, unknown>, settings: AccountSettings): Promise<User> {
    const identity: SsoIdentity = { issuer: String(claims.iss), subject: String(claims.sub) };
    // A returning person: whatever the token now says of their e-mail, the subject is theirs.
    const linked = await this.users.findByIdentity(identity);
    if (linked) return linked;
    const email = vouchedEmail(claims, settings);
    const existing = await this.users.findByEmail(email);
    if (existing) return this.link(existing.id, email, identity);
    if (!settings.autoCreate) {
      throw new LoginRefused(`There is no user with the e-mail address ${email} here. Ask an administrator to add you.`);
    }
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (settings.emailDomains && !settings.emailDomains.split(',').map((entry) => entry.trim().toLowerCase()).includes(domain)) {
      throw new LoginRefused(`Users from ${domain} are not created automatically here. Ask an administrator to add you.`);
    }
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null;
    try {
      return await this.users.createLinked({ email, name, rootRole: settings.defaultRootRoleId ?? settings.defaultRootRole }, identity, SSO_ACTOR);
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      // Two first logins at once: the other one created the user, linked. Else someone took the e-mail meanwhile.
      const created = await this.users.findByIdentity(identity);
      if (created) return created;
      const other = await this.users.findByEmail(email);
      if (other) return this.link(other.id, email, identity);
      throw error;
    }
  }

  private async link(id: number, email: string, identity: SsoIdentity): Promise<User> {
    const outcome: LinkOutcome = await this.users.linkIdentity(id, email, identity, SSO_ACTOR);
    if (!outcome.refused) return outcome.user;
    if (outcome.refused === 'identity-taken') {
      // A first login of the same person at the same moment linked it.
      const linked = await this.users.findByIdentity(identity);
      if (linked) return linked;
    }
    // The operator's log names the account; the person is told what to ask for.
    log.warn('OIDC login not linked to an existing user', { userId: id, reason: outcome.refused, issuer: identity.issuer });
    throw new LoginRefused(refusalOf(outcome.refused, email));
  }
}

/**
 * The token's e-mail, when the provider vouches for it: `email_verified` true, or absent from a
 * provider the settings trust for e-mail (`trustEmailClaim`). Some providers send the flag as a string.
 */
function vouchedEmail(claims: Record<string, unknown>, settings: AccountSettings): string {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) {
    throw new LoginRefused("The identity provider's ID token carries no e-mail address. Ask for the email scope and claim in its settings.");
  }
  const verified = claims.email_verified;
  if (verified === false || verified === 'false') {
    throw new LoginRefused(`The identity provider says the e-mail address ${email} is not verified.`);
  }
  if (verified === undefined && !settings.trustEmailClaim) {
    throw new LoginRefused(
      `The identity provider does not say whether the e-mail address ${email} is verified, so it can neither be matched to a user nor make one. ` +
      'If this provider only sends addresses it has verified, an administrator can turn on trustEmailClaim in the single sign-on settings.',
    );
  }
  if (verified !== true && verified !== 'true' && verified !== undefined) {
    throw new LoginRefused(`The identity provider's email_verified claim for ${email} is not true or false, so the address is not taken as verified.`);
  }
  return email;
}

function refusalOf(reason: Exclude<LinkOutcome['refused'], undefined>, email: string): string {
  switch (reason) {
    case 'email-unverified':
      return `There is already an account with the e-mail address ${email}, but nobody has confirmed that the address belongs to its owner ` +
        '(it was typed at an invite signup), so your single sign-on cannot be linked to it. Ask an administrator to check that account and confirm its e-mail.';
    case 'issuer-linked':
      return `The account with the e-mail address ${email} is already linked to another sign-in of this identity provider, so it cannot be linked to yours. ` +
        'Ask an administrator.';
    default:
      return `The account with the e-mail address ${email} changed while you were signing in. Sign in again.`;
  }
}
