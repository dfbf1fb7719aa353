import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CLIENTS_CACHE } from '../support/client.js';
import { exited, killGroup } from '../../support/process-group.js';

/** The newest 20.x of `unleash-edge` on crates.io (the crate index's last line), built unchanged. */
export const EDGE_VERSION = '20.1.0';

/**
 * `cargo install --root`: the binary lands in `bin/` under it, one folder per version. The suite
 * builds Edge's unchanged sources with cargo's dev profile (`--debug`, no debug info): Edge's
 * behaviour is the same, and the build takes about 5 minutes of two cores instead of the release
 * profile's optimised 20 or more, which a fresh CI machine could not afford. Edge's speed is not
 * what the suite measures.
 */
const INSTALL_ROOT = join(CLIENTS_CACHE, `unleash-edge-${EDGE_VERSION}-debug`);
const EDGE_BINARY = join(INSTALL_ROOT, 'bin', 'unleash-edge');
/**
 * Kept between builds (cargo install deletes its default temporary target dir), so a rebuild
 * after a cache wipe of the binary alone, or of the next 20.x, recompiles only what changed.
 */
const CARGO_TARGET_DIR = join(CLIENTS_CACHE, 'cargo-target', 'unleash-edge');
const BUILD_LOG = join(CLIENTS_CACHE, `unleash-edge-${EDGE_VERSION}-debug.build.log`);

let preparing: Promise<string> | undefined;

/**
 * The path of Edge's binary, built with `cargo install` from crates.io only when it is missing
 * (a cold build is many minutes of Rust on two cores; a warm prepare reads cargo's install record).
 */
export function prepareEdge(): Promise<string> {
  preparing ??= installIfMissing().catch((error: unknown) => {
    preparing = undefined;
    throw error;
  });
  return preparing;
}

async function installIfMissing(): Promise<string> {
  const started = performance.now();
  // A second build of the same crate into the same root would only halve both on two cores: wait
  // for one under way (another test process's, or one started by hand) and take its binary.
  for (let waiting = false; !existsSync(EDGE_BINARY) && installUnderWay(); waiting = true) {
    if (!waiting) console.info(`unleash-edge ${EDGE_VERSION}: waiting for the cargo install into ${INSTALL_ROOT} already under way`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  if (!existsSync(EDGE_BINARY)) {
    mkdirSync(CARGO_TARGET_DIR, { recursive: true });
    console.info(`unleash-edge ${EDGE_VERSION}: building with cargo install (log: ${BUILD_LOG})`);
    const code = await runToLog('cargo', ['install', 'unleash-edge', '--version', EDGE_VERSION, '--locked', '--debug', '--root', INSTALL_ROOT, '--target-dir', CARGO_TARGET_DIR], BUILD_LOG, { CARGO_PROFILE_DEV_DEBUG: '0' });
    if (code !== 0 || !existsSync(EDGE_BINARY)) {
      throw new Error(`cargo install unleash-edge@${EDGE_VERSION} exited with ${code}:\n${readFileSync(BUILD_LOG, 'utf8').slice(-4_000)}`);
    }
    console.info(`unleash-edge ${EDGE_VERSION}: built in ${seconds(started)} s`);
  }
  // Edge has no --version: cargo's record of what it installed under this root says which it is.
  const installed = readFileSync(join(INSTALL_ROOT, '.crates.toml'), 'utf8');
  if (!installed.includes(`"unleash-edge ${EDGE_VERSION} (`)) throw new Error(`${INSTALL_ROOT} holds another unleash-edge than ${EDGE_VERSION}:\n${installed}`);
  console.info(`unleash-edge ${EDGE_VERSION}: prepared in ${seconds(started)} s`);
  return EDGE_BINARY;
}

/** Whether a `cargo install` into this root runs now, from the processes' command lines (Linux). */
function installUnderWay(): boolean {
  if (!existsSync('/proc/self/cmdline')) return false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args.some((arg) => arg.endsWith('cargo')) && args.includes('install') && args.includes(INSTALL_ROOT)) return true;
  }
  return false;
}

export interface EdgeOptions {
  /** The service's base URL, without `/api` (Edge adds it). */
  upstreamUrl: string;
  /**
   * Validated through the upstream's `/edge/validate` before Edge listens. Edge posts each
   * environment's metrics with the first token of that environment in this list, so a
   * wildcard client token goes first (a frontend or project-scoped one there would lose them).
   */
  tokens: string[];
  /** How often Edge refreshes each token's features: 1 s here (Edge's loop wakes every 5 s). */
  refreshSeconds?: number;
  metricsSeconds?: number;
  /** How often Edge asks `/edge/validate` about every token it knows; Edge's default is an hour. */
  tokenRevalidationSeconds?: number;
  /** The application name Edge registers and sends with its requests. */
  appName?: string;
}

export interface StartedEdge {
  /** Where SDKs point: `${url}/api`; the backstage is at `${url}/internal-backstage`. */
  url: string;
  /** Edge's process, leader of its own process group. */
  pid: number;
  /** From spawn to a health and ready answer, in milliseconds. */
  startMs: number;
  output(): string;
  /** SIGTERM (Edge flushes its metrics), then the whole group is gone; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Every Edge this test process started and has not stopped, by process group. */
const running = new Set<ChildProcess>();

// A worker that exits without its afterAll (a hook that timed out) leaves no Edge behind.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/**
 * Starts `unleash-edge edge` on a free loopback port, plain HTTP, and waits until its health
 * and ready endpoints answer, however long that takes (the caller's hook timeout bounds it).
 * A port taken between choosing and binding it is chosen again.
 */
export async function startEdge(options: EdgeOptions): Promise<StartedEdge> {
  const binary = await prepareEdge();
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    edgePorts.add(port);
    try {
      const started = await startOnce(binary, options, port);
      return { ...started, stop: () => started.stop().finally(() => edgePorts.delete(port)) };
    } catch (error) {
      edgePorts.delete(port);
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/**
 * Ports of the Edges this process runs. Edge binds with SO_REUSEPORT, so a second Edge handed
 * the same port (two start at once in the cross-client suite) would bind it too and share its
 * requests instead of failing.
 */
const edgePorts = new Set<number>();

class PortTaken extends Error {}

async function startOnce(binary: string, options: EdgeOptions, port: number): Promise<StartedEdge> {
  const started = performance.now();
  const args = [
    '--port', String(port), '--interface', '127.0.0.1',
    '--app-name', options.appName ?? 'unleash-edge',
    'edge',
    '--upstream-url', options.upstreamUrl,
    '--tokens', options.tokens.join(','),
    '--features-refresh-interval-seconds', String(options.refreshSeconds ?? 1),
    '--metrics-interval-seconds', String(options.metricsSeconds ?? 1),
    '--token-revalidation-interval-seconds', String(options.tokenRevalidationSeconds ?? 3600),
  ];
  // Edge reads most options from environment variables too (PORT, TOKENS, UPSTREAM_URL, ...):
  // only these reach it, so the test process's own variables cannot change what it does.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', RUST_LOG: 'info' };
  const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopGroup(child);
  try {
    await untilAnswers(child, `${url}/internal-backstage/health`);
    await untilAnswers(child, `${url}/internal-backstage/ready`);
  } catch (error) {
    await stop();
    if (/address already in use|failed to bind/i.test(output)) throw new PortTaken(output);
    throw new Error(`unleash-edge did not start (${String(error)}):\n${output}`);
  }
  return { url, pid: child.pid ?? 0, startMs: Math.round(performance.now() - started), output: () => output, stop };
}

/** Waits for a 200 from `url`, or throws as soon as Edge has exited (its output says why). */
async function untilAnswers(child: ChildProcess, url: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    if (await fetch(url).then((res) => res.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops every Edge this test process started (afterAll). */
export async function stopEdges(): Promise<void> {
  await Promise.all([...running].map((child) => stopGroup(child)));
}

/**
 * SIGTERM lets Edge send its last metrics and shut its server down (up to 10 s by its own
 * rule); SIGKILL follows after a minute, and then for whatever is left of its group.
 */
async function stopGroup(child: ChildProcess): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 60_000);
    killGroup(child, 'SIGTERM');
    await exited(child);
    clearTimeout(force);
  }
  killGroup(child, 'SIGKILL');
  running.delete(child);
  return child.exitCode;
}

async function freePort(): Promise<number> {
  for (;;) {
    const port = await portTheSystemHandsOut();
    if (!edgePorts.has(port)) return port;
  }
}

function portTheSystemHandsOut(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a build in its own process group, its output appended to `logFile`, killed if the worker exits. */
function runToLog(command: string, args: string[], logFile: string, env: Record<string, string> = {}): Promise<number | null> {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return exited(child).then((code) => {
    running.delete(child);
    return new Promise((resolve) => log.end(() => resolve(code)));
  });
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
