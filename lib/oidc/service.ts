import { ValidationFailed } from '../errors.js';
import { rootRoleById, type RootRoleId, type RootRoleName } from '../roles/model.js';
import type { SecretBox } from '../secrets/secret-box.js';
import {
  DEFAULT_OIDC_SETTINGS,
  SECRET_MASK,
  SECRET_PURPOSE,
  type IdTokenSigningAlgorithm,
  type OidcSettings,
  type OidcSettingsView,
} from './model.js';
import type { OidcSettingsStore } from './store.js';
import type { ProviderSettings } from './provider.js';

/** E19's body: fields left out take the defaults, since a POST replaces the settings. */
export interface OidcInput {
  enabled?: boolean | undefined;
  discoverUrl?: string | undefined;
  clientId: string;
  secret: string;
  autoCreate?: boolean | undefined;
  enableSingleSignOut?: boolean | undefined;
  defaultRootRole?: RootRoleName | undefined;
  defaultRootRoleId?: number | undefined;
  emailDomains?: string | undefined;
  acrValues?: string | undefined;
  idTokenSigningAlgorithm?: IdTokenSigningAlgorithm | undefined;
  enableGroupSyncing?: boolean | undefined;
  groupJsonPath?: string | undefined;
  addGroupsScope?: boolean | undefined;
  trustEmailClaim?: boolean | undefined;
}

export class OidcSettingsService {
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly store: OidcSettingsStore,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(): Promise<OidcSettingsView> {
    const stored = await this.store.get();
    return stored ? toView(stored) : DEFAULT_OIDC_SETTINGS;
  }

  async set(input: OidcInput, by: string): Promise<OidcSettingsView> {
    const settings: OidcSettings = {
      enabled: input.enabled ?? DEFAULT_OIDC_SETTINGS.enabled,
      discoverUrl: input.discoverUrl ?? null,
      clientId: input.clientId,
      sealedSecret: await this.sealedSecretFor(input.secret),
      autoCreate: input.autoCreate ?? DEFAULT_OIDC_SETTINGS.autoCreate,
      enableSingleSignOut: input.enableSingleSignOut ?? DEFAULT_OIDC_SETTINGS.enableSingleSignOut,
      defaultRootRole: input.defaultRootRole ?? DEFAULT_OIDC_SETTINGS.defaultRootRole,
      defaultRootRoleId: defaultRootRoleIdOf(input.defaultRootRoleId),
      emailDomains: input.emailDomains ?? null,
      acrValues: input.acrValues ?? null,
      idTokenSigningAlgorithm: input.idTokenSigningAlgorithm ?? DEFAULT_OIDC_SETTINGS.idTokenSigningAlgorithm,
      enableGroupSyncing: input.enableGroupSyncing ?? DEFAULT_OIDC_SETTINGS.enableGroupSyncing,
      groupJsonPath: input.groupJsonPath ?? null,
      addGroupsScope: input.addGroupsScope ?? DEFAULT_OIDC_SETTINGS.addGroupsScope,
      trustEmailClaim: input.trustEmailClaim ?? DEFAULT_OIDC_SETTINGS.trustEmailClaim,
      updatedAt: this.now().toISOString(),
      updatedBy: by,
    };
    await this.store.put(settings);
    for (const listener of this.listeners) listener();
    return toView(settings);
  }

  /** Called after each save (the login options this container remembers). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** For the UI configuration (E16): whether an OIDC login is on. */
  async isEnabled(): Promise<boolean> {
    return (await this.store.get())?.enabled ?? false;
  }

  /** The client secret in plain text; the API never answers it. */
  async clientSecret(): Promise<string | undefined> {
    const stored = await this.store.get();
    return stored ? this.box.open(stored.sealedSecret, SECRET_PURPOSE) : undefined;
  }

  /**
   * The settings a login runs on, with the client secret in plain text (the API never answers
   * it); undefined while OIDC is off or no discovery URL is saved.
   */
  async forLogin(): Promise<(OidcSettings & { provider: ProviderSettings }) | undefined> {
    const stored = await this.store.get();
    if (!stored?.enabled || !stored.discoverUrl) return undefined;
    return {
      ...stored,
      provider: {
        discoverUrl: stored.discoverUrl, clientId: stored.clientId, clientSecret: await this.box.open(stored.sealedSecret, SECRET_PURPOSE),
        idTokenSigningAlgorithm: stored.idTokenSigningAlgorithm,
      },
    };
  }

  /** The mask sent back keeps the stored secret; anything else is sealed as the new secret. */
  private async sealedSecretFor(secret: string): Promise<string> {
    if (secret !== SECRET_MASK) return this.box.seal(secret, SECRET_PURPOSE);
    const stored = await this.store.get();
    if (!stored) throw new ValidationFailed('secret: no secret is stored yet, so the masked value cannot stand for it');
    return stored.sealedSecret;
  }
}

function defaultRootRoleIdOf(id: number | undefined): RootRoleId | null {
  if (id === undefined) return null;
  const role = rootRoleById(id);
  if (!role) throw new ValidationFailed(`defaultRootRoleId: ${id} is not a root role; root roles are 1 (Admin), 2 (Editor), 3 (Viewer)`);
  return role.id;
}

function toView(settings: OidcSettings): OidcSettingsView {
  const { sealedSecret: _sealed, updatedAt: _at, updatedBy: _by, trustEmailClaim, ...shown } = settings;
  return { ...shown, trustEmailClaim: trustEmailClaim ?? false, secret: SECRET_MASK };
}
