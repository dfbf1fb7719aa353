/**
 * The browser client in the evaluator protocol (test/clients/README.md): OpenFeature's web SDK
 * with its OFREP web provider, as published, in Chromium, on a page of its own origin (so every
 * request is a cross-origin one, as from a web application). The provider is configured with
 * `Authorization: Bearer <token>` and polls every CLIENT_REFRESH_SECONDS. For each case the page
 * sets the static context (the provider evaluates every flag again for it, with its ETag) and
 * reads the flag's details, which the web SDK answers from what the provider fetched.
 * Only `ofrep`: a browser has no Unleash server SDK.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../support/chromium.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** The page's script: the two packages on `window`, bundled as a web application would bundle them. */
async function pageScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import { OpenFeature } from '@openfeature/web-sdk'; import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';\n" +
        'Object.assign(window, { OpenFeature, OFREPWebProvider });',
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Serves the page on 127.0.0.1 (a port of its own: another origin than the service's). */
async function servePage(script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/openfeature.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>web client</title><script src="/openfeature.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Starts the provider in the page; rejects with the provider's error when it cannot initialise. */
async function startProvider(page: Page): Promise<void> {
  const options = {
    baseUrl: setting('CLIENT_URL'),
    headers: [['Authorization', `Bearer ${setting('CLIENT_TOKEN')}`]],
    pollInterval: Number(setting('CLIENT_REFRESH_SECONDS')) * 1000,
    changeDetection: 'polling',
    // Each run starts from the service's answer, never from an earlier run's local storage.
    cacheMode: 'disabled',
  };
  // A string, as this file is compiled without the DOM's types.
  const outcome = (await page.evaluate(`(async () => {
    window.flags = OpenFeature.getClient(${JSON.stringify(setting('CLIENT_APP_NAME'))});
    try {
      await OpenFeature.setProviderAndWait(new OFREPWebProvider(${JSON.stringify(options)}));
      return { ready: true };
    } catch (error) {
      return { ready: false, error: String(error) };
    }
  })()`)) as { ready: boolean; error?: string };
  if (!outcome.ready) throw new Error(outcome.error);
}

const GETTERS = { boolean: 'getBooleanDetails', string: 'getStringDetails', number: 'getNumberDetails', object: 'getObjectDetails' } as const;

/** One case: the context set (the provider fetches every flag for it), then the flag's details. */
async function evaluate(page: Page, { flag, type, default: fallback, context }: { flag: string; type: keyof typeof GETTERS; default: unknown; context: unknown }): Promise<unknown> {
  const getter = GETTERS[type];
  if (!getter) throw new Error(`unknown type ${String(type)}`);
  return page.evaluate(`(async () => {
    await OpenFeature.setContext(${JSON.stringify(context ?? {})});
    const details = window.flags.${getter}(${JSON.stringify(flag)}, ${JSON.stringify(fallback)});
    return {
      value: details.value,
      variant: details.variant ?? null,
      reason: details.reason ?? null,
      errorCode: details.errorCode ?? null,
      metadata: details.flagMetadata ?? {},
    };
  })()`);
}

if (process.env.CLIENT_KIND !== 'ofrep') {
  write({ ready: false, error: 'the web client has no Unleash SDK: only CLIENT_KIND=ofrep' });
  process.exit(1);
}

let browser: Browser | undefined;
let pageServer: Server | undefined;
let page: Page;
const close = async () => {
  await page?.evaluate('OpenFeature.close()').catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
};
try {
  const { server, origin } = await servePage(await pageScript());
  pageServer = server;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  page.on('console', (message) => console.error(`page ${message.type()}: ${message.text()}`));
  await page.goto(`${origin}/`);
  await startProvider(page);
} catch (error) {
  write({ ready: false, error: String(error) });
  await close();
  process.exit(1);
}
write({ ready: true, client: `@openfeature/ofrep-web-provider@${versionOf('@openfeature/ofrep-web-provider')}` });

// One request at a time, in order: the context is the page's one static context.
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let id: unknown;
  try {
    const request = JSON.parse(line) as { id: number; op: string; cases?: Array<Parameters<typeof evaluate>[1]> };
    id = request.id;
    if (request.op === 'stop') {
      await close();
      write({ id, stopped: true });
      process.exit(0);
    }
    if (request.op !== 'evaluate') throw new Error(`unknown op ${request.op}`);
    const results = [];
    for (const testCase of request.cases ?? []) results.push(await evaluate(page, testCase));
    write({ id, results });
  } catch (error) {
    write({ id, error: String(error) });
  }
}
await close();
process.exit(0);
