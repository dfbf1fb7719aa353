import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientUnderTest } from '../support/client.js';

// Read from the installed folder: some packages' exports do not list package.json.
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The reference: the Node SDK and OpenFeature's Node OFREP provider, both the project's own
 * dependencies (package.json), so nothing is installed or built here.
 */
export const client: ClientUnderTest = {
  name: 'node',
  sdk: { package: 'unleash-client', version: versionOf('unleash-client') },
  ofrep: {
    package: '@openfeature/ofrep-provider', version: versionOf('@openfeature/ofrep-provider'),
    sdkPackage: '@openfeature/server-sdk', sdkVersion: versionOf('@openfeature/server-sdk'),
  },
  prepare: async () => undefined,
  command: () => ({ command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'test', 'clients', 'node', 'evaluator.ts')], cwd: ROOT }),
};
