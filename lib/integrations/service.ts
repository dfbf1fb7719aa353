import { NotFound, ValidationFailed } from '../errors.js';
import { changeEvent } from '../events/model.js';
import type { DeliveryRecord } from './model.js';
import { maskedParameters, sealParameters } from './parameters.js';
import { MASKED_VALUE, PROVIDERS, providerNamed, type ProviderDefinition, type ProviderName } from './providers.js';
import { hostOf, isPublicAddress } from './public-address.js';
import type { DeliveryLog, IntegrationStore, Sealer, StoredIntegration } from './store.js';
import { isIP } from 'node:net';

/** An integration as the admin API takes it (Unleash's addonCreateUpdateSchema). */
export interface IntegrationInput {
  provider: string;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  parameters?: Record<string, string | number | boolean> | undefined;
  events?: string[] | undefined;
  projects?: string[] | undefined;
  environments?: string[] | undefined;
}

/** An integration as the admin API answers it: sensitive parameters masked. */
export interface IntegrationView {
  id: number;
  provider: string;
  description: string;
  enabled: boolean;
  parameters: Record<string, string>;
  events: string[];
  projects: string[];
  environments: string[];
  createdAt: string;
}

export interface IntegrationSettings {
  /** UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: URLs on loopback and private networks may be configured. */
  allowPrivateUrls: boolean;
}

/** The integrations an admin configures (Unleash's addons), and their delivery logs. */
export class IntegrationService {
  constructor(
    private readonly store: IntegrationStore,
    private readonly deliveries: DeliveryLog,
    private readonly sealer: Sealer,
    private readonly settings: IntegrationSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  providers(): readonly ProviderDefinition[] {
    return PROVIDERS;
  }

  async list(): Promise<IntegrationView[]> {
    return (await this.store.list()).sort((a, b) => a.id - b.id).map(toView);
  }

  async get(id: number): Promise<IntegrationView> {
    return toView(await this.stored(id));
  }

  async create(input: IntegrationInput, actor: string): Promise<IntegrationView> {
    const provider = this.checkedProvider(input);
    if (provider.deprecated) throw new ValidationFailed(provider.deprecated);
    const parameters = this.checkedParameters(provider, input.parameters ?? {});
    const id = await this.store.nextId();
    const integration: StoredIntegration = {
      ...settingsOf(input, provider.name), id, createdAt: this.now().toISOString(), ...(await sealParameters(id, provider.name, parameters, this.sealer)),
    };
    await this.store.insert(integration, changeEvent('addon-config-created', { changes: [`${provider.name}:${id}`] }, actor));
    return toView(integration);
  }

  /** PUT: the whole configuration; a sensitive parameter sent as the mask keeps its stored value. */
  async update(id: number, input: IntegrationInput, actor: string): Promise<IntegrationView> {
    const existing = await this.stored(id);
    const provider = this.checkedProvider(input);
    const sent = Object.fromEntries(Object.entries(input.parameters ?? {}).map(([name, value]) => [name, String(value)]));
    const kept = Object.fromEntries(Object.entries(sent).filter(([name, value]) => value === MASKED_VALUE && existing.provider === provider.name && name in existing.sealedParameters));
    const changed = Object.fromEntries(Object.entries(sent).filter(([name]) => !(name in kept)));
    // Required parameters kept by their mask count as given.
    this.checkedParameters(provider, { ...changed, ...Object.fromEntries(Object.keys(kept).map((name) => [name, MASKED_VALUE])) }, Object.keys(kept));
    const sealed = await sealParameters(id, provider.name, changed, this.sealer);
    const integration: StoredIntegration = {
      ...settingsOf(input, provider.name), id, createdAt: existing.createdAt,
      parameters: sealed.parameters,
      sealedParameters: { ...sealed.sealedParameters, ...Object.fromEntries(Object.keys(kept).map((name) => [name, existing.sealedParameters[name] as string])) },
    };
    if (!(await this.store.replace(integration, changeEvent('addon-config-updated', { changes: [`${provider.name}:${id}`] }, actor)))) throw notFound();
    return toView(integration);
  }

  /** Queued deliveries of a deleted integration are dropped when they come up (lib/integrations/delivery.ts). */
  async delete(id: number, actor: string): Promise<void> {
    const existing = await this.stored(id);
    if (!(await this.store.delete(id, changeEvent('addon-config-deleted', { changes: [`${existing.provider}:${id}`] }, actor)))) throw notFound();
  }

  /** The integration's newest deliveries (Unleash's integration events), after `offset` of them. */
  async deliveriesOf(id: number, limit: number, offset: number): Promise<DeliveryRecord[]> {
    await this.stored(id);
    return this.deliveries.latest(id, limit, offset);
  }

  private async stored(id: number): Promise<StoredIntegration> {
    const stored = await this.store.get(id);
    if (!stored) throw notFound();
    return stored;
  }

  private checkedProvider(input: IntegrationInput): ProviderDefinition {
    if (!input.provider) throw new ValidationFailed('provider: No addon provider supplied. The property was either missing or an empty value.');
    const provider = providerNamed(input.provider);
    if (!provider) throw new ValidationFailed(`provider: Unknown addon provider ${input.provider}`);
    return provider;
  }

  /** Required parameters given and not empty; URL parameters http(s) and, unless allowed, not aimed at a private address. */
  private checkedParameters(provider: ProviderDefinition, raw: Record<string, string | number | boolean>, kept: string[] = []): Record<string, string> {
    const parameters = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, String(value)]));
    const missing = provider.parameters.filter((parameter) => parameter.required && !(parameters[parameter.name] ?? '').trim()).map((parameter) => parameter.name);
    if (missing.length > 0) throw new ValidationFailed(`parameters: Missing required parameters: ${missing.join(',')}`);
    for (const parameter of provider.parameters) {
      const value = parameters[parameter.name];
      if (parameter.type !== 'url' || !value || kept.includes(parameter.name)) continue;
      this.checkUrl(parameter.name, value);
    }
    return parameters;
  }

  /**
   * A URL naming its host by address is checked here; a host name is checked where it is
   * resolved, at each delivery (lib/integrations/http-poster.ts), since its address may change.
   */
  private checkUrl(name: string, value: string): void {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ValidationFailed(`parameters.${name}: must be a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationFailed(`parameters.${name}: Invalid protocol: ${url.protocol}`);
    if (this.settings.allowPrivateUrls) return;
    const host = hostOf(url);
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host))) {
      throw new ValidationFailed(`parameters.${name}: URL resolves to a non-public address: ${host}`);
    }
  }
}

function settingsOf(input: IntegrationInput, provider: ProviderName) {
  return {
    provider,
    description: input.description ?? '',
    enabled: input.enabled ?? true,
    events: input.events ?? [],
    projects: input.projects ?? [],
    environments: input.environments ?? [],
  };
}

function toView(stored: StoredIntegration): IntegrationView {
  const { sealedParameters: _sealed, ...rest } = stored;
  return { ...rest, parameters: maskedParameters(stored) };
}

const notFound = () => new NotFound('Could not find addon');
