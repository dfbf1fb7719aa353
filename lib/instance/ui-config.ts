import { randomUUID } from 'node:crypto';
import { RESOURCE_LIMITS } from '../limits.js';
import type { InstanceStore } from './store.js';

export interface UiConfigSettings {
  version: string;
  unleashUrl: string;
  baseUriPath: string;
}

export interface UiConfig {
  slogan: string;
  name: string;
  version: string;
  environment: string;
  unleashUrl: string;
  baseUriPath: string;
  disablePasswordAuth: boolean;
  emailEnabled: boolean;
  maintenanceMode: boolean;
  segmentValuesLimit: number;
  strategySegmentsLimit: number;
  resourceLimits: typeof UI_RESOURCE_LIMITS;
  networkViewEnabled: boolean;
  frontendApiOrigins: string[];
  flags: Record<string, boolean>;
  links: Array<{ value: string; icon: string; href: string; title: string }>;
  authenticationType: 'open-source' | 'enterprise';
  versionInfo: {
    current: { oss: string; enterprise: string };
    latest: Record<string, never>;
    isLatest: boolean;
    instanceId: string;
  };
}

export const PRODUCT_NAME = 'serverless-toggles';

/**
 * Whether the service calls anyone to learn of newer releases or to report how it is used: it
 * never does, so the UI's version information has no `latest`, and the privacy page reads both
 * kinds of collection off.
 */
export const CALLS_HOME = false;

/**
 * The limits the admin UI checks before it offers to add one more (a strategy, a constraint
 * value, a project…). Those the API enforces come from lib/limits.ts. For the others the API
 * refuses nothing past them, and the UI gets Unleash's defaults, so it behaves as against a
 * default Unleash; except flags, where Unleash's 5,000 would stop the UI long before this service
 * stops (the bench measures 50,000, docs/performance.md).
 */
export const UI_RESOURCE_LIMITS = {
  ...RESOURCE_LIMITS,
  featureEnvironmentStrategies: 30,
  constraintValues: 250,
  constraints: 30,
  environments: 50,
  apiTokens: 2000,
  projects: 500,
  segments: 300,
  featureFlags: 50_000,
  releaseTemplates: 10,
} as const;

/** The Frontend API's CORS origins (lib/frontend/dynamo-origins.ts). */
export interface OriginsSetting {
  read(): Promise<string[]>;
}

/** Whether maintenance mode is on (lib/maintenance/service.ts), as this container last read it. */
export interface MaintenanceSetting {
  isOn(): Promise<boolean>;
}

/** Whether an OpenID Connect login is on (E19). */
export interface LoginSettings {
  rememberedState(): Promise<{ oidc: boolean; password: boolean }>;
}

/**
 * E16. Every value comes from configuration or from the store. The service never calls out
 * to learn of newer releases, so `latest` stays empty and `isLatest` true, as in an Unleash
 * instance whose version check is off.
 */
export class UiConfigService {
  constructor(
    private readonly settings: UiConfigSettings,
    private readonly instance: InstanceStore,
    private readonly logins: LoginSettings,
    private readonly origins: OriginsSetting,
    private readonly maintenance: MaintenanceSetting,
  ) {}

  /**
   * While OIDC is on, `authenticationType` is `enterprise`: the login screen offers single
   * sign-on, as Unleash Enterprise's does. `disablePasswordAuth` is the simple-auth setting
   * (lib/auth/login-methods.ts), as in Unleash where OIDC alone does not turn it on.
   */
  async get(): Promise<UiConfig> {
    const [instanceId, logins, frontendApiOrigins, maintenanceMode] = await Promise.all([
      this.instance.instanceId(randomUUID()), this.logins.rememberedState(), this.origins.read(), this.maintenance.isOn(),
    ]);
    return {
      slogan: 'Feature toggles on AWS Lambda and DynamoDB, for the Unleash SDKs.',
      name: PRODUCT_NAME,
      version: this.settings.version,
      environment: 'Open Source',
      unleashUrl: this.settings.unleashUrl,
      baseUriPath: this.settings.baseUriPath,
      disablePasswordAuth: !logins.password,
      emailEnabled: false,
      maintenanceMode,
      segmentValuesLimit: RESOURCE_LIMITS.segmentValues,
      strategySegmentsLimit: RESOURCE_LIMITS.strategySegments,
      resourceLimits: UI_RESOURCE_LIMITS,
      networkViewEnabled: false,
      frontendApiOrigins,
      flags: {},
      links: [],
      authenticationType: logins.oidc ? 'enterprise' : 'open-source',
      versionInfo: {
        current: { oss: this.settings.version, enterprise: '' },
        latest: {},
        isLatest: !CALLS_HOME,
        instanceId,
      },
    };
  }

  /** Admin settings → Privacy: what the instance reports to Unleash (Unleash's telemetry settings). */
  telemetry() {
    return { versionInfoCollectionEnabled: CALLS_HOME, featureInfoCollectionEnabled: CALLS_HOME };
  }
}
