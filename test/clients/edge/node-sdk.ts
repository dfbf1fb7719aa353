import { InMemStorageProvider, Unleash } from 'unleash-client';
import { unique } from '../../support/services.js';

export interface Sdk {
  unleash: Unleash;
  /** Every error the SDK emitted, as text. */
  errors: string[];
}

/**
 * The official Node SDK in this process against `baseUrl` (the service or Edge), synchronised once,
 * always destroyed. Its own instance, not `initialize`'s process-wide one: one through Edge and one
 * against the service run side by side. An error before the first sync fails it with that error.
 */
export async function withSdk(baseUrl: string, token: string, run: (sdk: Sdk) => Promise<void>, options: { appName?: string; metrics?: boolean } = {}): Promise<Sdk> {
  const unleash = new Unleash({
    url: `${baseUrl}/api`,
    appName: options.appName ?? unique('edge-sdk'),
    customHeaders: { Authorization: token },
    refreshInterval: 1_000,
    ...(options.metrics ? { metricsInterval: 1_000 } : { disableMetrics: true }),
    storageProvider: new InMemStorageProvider(),
    skipInstanceCountWarning: true,
  });
  const sdk: Sdk = { unleash, errors: [] };
  unleash.on('error', (error: unknown) => sdk.errors.push(String(error)));
  try {
    await new Promise<void>((resolve, reject) => {
      if (unleash.isSynchronized()) return resolve();
      unleash.once('synchronized', () => resolve());
      unleash.once('error', (error: unknown) => reject(new Error(`the SDK failed before its first sync: ${String(error)}`)));
    });
    await run(sdk);
  } finally {
    unleash.destroy();
  }
  return sdk;
}

/** Resolves with the first truthy answer of `probe`, asked again every 200 ms, however long that takes. */
export async function until<T>(probe: () => Promise<T> | T): Promise<NonNullable<T>> {
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
