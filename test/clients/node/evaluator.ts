/**
 * The reference client in the evaluator protocol (test/clients/README.md): the official Node SDK
 * (unleash-client) for `sdk`, OpenFeature's server SDK with its OFREP provider for `ofrep`. It
 * proves the suite without any other toolchain, and every other client is compared with it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { initialize, InMemStorageProvider, type Context, type Unleash } from 'unleash-client';
import { OpenFeature, type Client, type EvaluationContext, type EvaluationDetails, type FlagValue, type JsonValue } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';

// Read from the installed folder: some packages' exports do not list package.json.
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

interface Evaluating {
  client: string;
  evaluate(testCase: any): unknown;
  close(): Promise<void>;
}

/** The SDK, once it has fetched the flags; an error before that is a start that failed. */
async function startSdk(): Promise<Evaluating> {
  const unleash: Unleash = initialize({
    url: setting('CLIENT_URL'),
    appName: setting('CLIENT_APP_NAME'),
    environment: setting('CLIENT_ENVIRONMENT'),
    customHeaders: { Authorization: setting('CLIENT_TOKEN') },
    refreshInterval: Number(setting('CLIENT_REFRESH_SECONDS')) * 1000,
    metricsInterval: Number(setting('CLIENT_METRICS_SECONDS')) * 1000,
    storageProvider: new InMemStorageProvider(),
  });
  await new Promise<void>((resolve, reject) => {
    unleash.once('synchronized', () => resolve());
    unleash.once('error', reject);
  });
  // Past the start, errors (a refused poll) are the SDK's to live with, as in an application.
  unleash.on('error', (error: unknown) => console.error(`unleash-client: ${String(error)}`));
  unleash.on('warn', (message: unknown) => console.error(`unleash-client warning: ${String(message)}`));
  return {
    client: `unleash-client@${versionOf('unleash-client')}`,
    evaluate: ({ flag, type, context }: { flag: string; type: string; context: Context }) => {
      if (type === 'boolean') return { enabled: unleash.isEnabled(flag, context) };
      const variant = unleash.getVariant(flag, context);
      return {
        variant: { name: variant.name, enabled: variant.enabled, payload: variant.payload ?? null, featureEnabled: variant.feature_enabled ?? null },
      };
    },
    close: async () => {
      await unleash.destroyWithFlush();
    },
  };
}

async function startOfrep(): Promise<Evaluating> {
  // The header as a provider's user configures it: the raw token, as Unleash's SDKs send it.
  await OpenFeature.setProviderAndWait(new OFREPProvider({ baseUrl: setting('CLIENT_URL'), headers: { Authorization: setting('CLIENT_TOKEN') } }));
  const client: Client = OpenFeature.getClient(setting('CLIENT_APP_NAME'));
  const answer = (details: EvaluationDetails<FlagValue>) => ({
    value: details.value,
    variant: details.variant ?? null,
    reason: details.reason ?? null,
    errorCode: details.errorCode ?? null,
    metadata: details.flagMetadata ?? {},
  });
  return {
    client: `@openfeature/ofrep-provider@${versionOf('@openfeature/ofrep-provider')}`,
    evaluate: async ({ flag, type, default: fallback, context }: { flag: string; type: string; default: unknown; context: EvaluationContext }) => {
      if (type === 'boolean') return answer(await client.getBooleanDetails(flag, fallback as boolean, context));
      if (type === 'string') return answer(await client.getStringDetails(flag, fallback as string, context));
      if (type === 'number') return answer(await client.getNumberDetails(flag, fallback as number, context));
      return answer(await client.getObjectDetails(flag, fallback as JsonValue, context));
    },
    close: () => OpenFeature.close(),
  };
}

const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

let evaluating: Evaluating;
try {
  evaluating = process.env.CLIENT_KIND === 'ofrep' ? await startOfrep() : await startSdk();
} catch (error) {
  write({ ready: false, error: String(error) });
  process.exit(1);
}
write({ ready: true, client: evaluating.client });

// One request at a time, in order, as the protocol's answers are read in order.
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let id: unknown;
  try {
    const request = JSON.parse(line) as { id: number; op: string; cases?: unknown[] };
    id = request.id;
    if (request.op === 'stop') {
      await evaluating.close();
      write({ id, stopped: true });
      process.exit(0);
    }
    if (request.op !== 'evaluate') throw new Error(`unknown op ${request.op}`);
    const results = [];
    for (const testCase of request.cases ?? []) results.push(await evaluating.evaluate(testCase));
    write({ id, results });
  } catch (error) {
    write({ id, error: String(error) });
  }
}
await evaluating.close();
process.exit(0);
