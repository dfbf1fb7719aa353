import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClientUnderTest } from './client.js';

/** test/clients: every folder of it with a `client.ts` is a client under test. */
export const CLIENTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every `test/clients/<folder>/client.ts` that exports `client`, so a language's folder joins the
 * suite without any shared list to edit; `CLIENTS=java,go` keeps those only (an unknown name
 * fails, so a typo cannot pass as an empty run). Prints what runs.
 */
export async function discoverClients(only = process.env.CLIENTS): Promise<ClientUnderTest[]> {
  const wanted = only?.split(',').map((name) => name.trim()).filter((name) => name && name !== EDGE);
  const found: ClientUnderTest[] = [];
  for (const folder of readdirSync(CLIENTS_DIR, { withFileTypes: true })) {
    const file = join(CLIENTS_DIR, folder.name, 'client.ts');
    if (!folder.isDirectory() || !existsSync(file)) continue;
    // A folder left out is not even loaded: its client.ts may check its toolchain as it loads.
    if (wanted?.length && !wanted.includes(folder.name)) continue;
    const module = (await import(pathToFileURL(file).href)) as { client?: ClientUnderTest };
    if (module.client) found.push(module.client);
  }
  found.sort((a, b) => (a.name === 'node' ? -1 : b.name === 'node' ? 1 : a.name.localeCompare(b.name)));
  if (!wanted?.length) {
    console.log(`clients under test: ${found.map((client) => client.name).join(', ')} (every client found; CLIENTS=name,… to pick)`);
    return found;
  }
  const unknown = wanted.filter((name) => !found.some((client) => client.name === name));
  if (unknown.length) throw new Error(`CLIENTS names ${unknown.join(', ')}, not among ${found.map((client) => client.name).join(', ')}`);
  const picked = found.filter((client) => wanted.includes(client.name));
  console.log(`clients under test: ${picked.map((client) => client.name).join(', ')} (CLIENTS=${only})`);
  return picked;
}

/**
 * Unleash Edge is not a client of its own (test/clients/edge exports no `client`): it runs when
 * CLIENTS is unset or names it (`CLIENTS=go,edge`), in front of the server, with one SDK.
 */
export const EDGE = 'edge';
export const edgeWanted = (only = process.env.CLIENTS): boolean =>
  !only?.trim() || only.split(',').some((name) => name.trim() === EDGE);

/** The reference every other client's answers are compared with: the Node SDK, unless CLIENTS left it out. */
export const REFERENCE_CLIENT = 'node';
