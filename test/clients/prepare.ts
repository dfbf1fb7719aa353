/**
 * Installs and builds every client of other languages and Unleash Edge into the clients cache,
 * one after another, as the suite's own hooks would: `npm run clients:prepare`. CI starts it in
 * the background while `npm test` runs, so `npm run test:clients` finds everything built.
 * Exits 1 if any preparation failed (the suite would report the same failure).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLIENTS_CACHE } from './support/client.js';
import { CLIENTS_DIR, discoverClients, edgeWanted } from './support/discovery.js';

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const steps: Array<[string, () => Promise<unknown>]> = (await discoverClients()).map((client) => [client.name, () => client.prepare()]);
const edgeFile = join(CLIENTS_DIR, 'edge', 'edge.ts');
if (existsSync(edgeFile) && edgeWanted()) {
  const edge = (await import(pathToFileURL(edgeFile).href)) as { prepareEdge(): Promise<string> };
  steps.push(['edge', () => edge.prepareEdge()]);
}

console.log(`preparing ${steps.map(([name]) => name).join(', ')} in ${CLIENTS_CACHE}`);
let failed = 0;
for (const [name, prepare] of steps) {
  const started = performance.now();
  try {
    await prepare();
    console.log(`${name}: prepared in ${seconds(started)} s`);
  } catch (error) {
    failed += 1;
    console.error(`${name}: failed after ${seconds(started)} s: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed ? 1 : 0);
