import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientUnderTest } from '../support/client.js';
import { CHROMIUM } from '../../support/chromium.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// Read from the installed folder: some packages' exports do not list package.json.
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The browser: OpenFeature's web SDK and its OFREP web provider, both the project's own
 * dependencies (package.json), in Debian's Chromium (test/support/chromium.ts). No Unleash SDK:
 * the browser's Unleash SDK speaks the Frontend API, not the SDK API the suite compares with.
 */
export const client: ClientUnderTest = {
  name: 'web',
  ofrep: {
    package: '@openfeature/ofrep-web-provider', version: versionOf('@openfeature/ofrep-web-provider'),
    sdkPackage: '@openfeature/web-sdk', sdkVersion: versionOf('@openfeature/web-sdk'),
    // What a page ships with: a frontend token, never a client one.
    token: 'frontend',
  },
  prepare: async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  },
  command: () => ({ command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'test', 'clients', 'web', 'evaluator.ts')], cwd: ROOT }),
};
