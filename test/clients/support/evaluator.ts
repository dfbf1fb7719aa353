import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ClientUnderTest, EvaluatorKind } from './client.js';
import { killGroup } from '../../support/process-group.js';

/** What an evaluator is started with (the CLIENT_* variables of test/clients/README.md). */
export interface EvaluatorSettings {
  url: string;
  token: string;
  appName: string;
  environment: string;
  refreshSeconds?: number;
  metricsSeconds?: number;
}

export interface SdkCase { flag: string; type: 'boolean' | 'variant'; context: Record<string, unknown> }
export interface SdkVariant { name: string; enabled: boolean; payload: { type: string; value: string } | null; featureEnabled: boolean | null }
export type SdkResult = { enabled: boolean } | { variant: SdkVariant };

export type OfrepType = 'boolean' | 'string' | 'number' | 'object';
export interface OfrepCase { flag: string; type: OfrepType; default: unknown; context: Record<string, unknown> }
export interface OfrepResult { value: unknown; variant: string | null; reason: string | null; errorCode: string | null; metadata: Record<string, unknown> }

export interface Evaluator {
  /** `<package>@<version>` as the evaluator's ready line names it. */
  clientVersion: string;
  pid: number;
  evaluate(cases: SdkCase[]): Promise<SdkResult[]>;
  evaluate(cases: OfrepCase[]): Promise<OfrepResult[]>;
  /** Asks the evaluator to close its client (flushing metrics) and waits until its process group is gone. */
  stop(): Promise<void>;
  /** Whether its process still runs. */
  running(): boolean;
  /** What it wrote to standard error, for failure messages. */
  stderr(): string;
}

/**
 * Every evaluator this test process started and has not stopped, by process group: each runs in
 * a group of its own (`detached`), so a JVM or Python interpreter it forks is ended with it.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/** Stops every evaluator still running (afterAll): the ones a failing test never got to stop. */
export async function stopEvaluators(): Promise<void> {
  await Promise.all([...running].map((child) => endGroup(child)));
}

/**
 * Starts `client`'s evaluator of `kind` and resolves once its ready line arrives (the SDK has
 * fetched the flags; the provider is initialised). A refused start rejects with the evaluator's
 * own words and its standard error.
 */
export async function startEvaluator(client: ClientUnderTest, kind: EvaluatorKind, settings: EvaluatorSettings): Promise<Evaluator> {
  const { command, args, cwd, env } = client.command(kind);
  const child = spawn(command, args, {
    cwd,
    env: {
      ...process.env,
      ...env,
      CLIENT_KIND: kind,
      CLIENT_URL: kind === 'sdk' ? `${settings.url}/api` : settings.url,
      CLIENT_TOKEN: settings.token,
      CLIENT_APP_NAME: settings.appName,
      CLIENT_ENVIRONMENT: settings.environment,
      CLIENT_REFRESH_SECONDS: String(settings.refreshSeconds ?? 1),
      CLIENT_METRICS_SECONDS: String(settings.metricsSeconds ?? 1),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // The last part is what explains a failure; a chatty SDK's whole log is not kept.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  child.stdin?.on('error', () => undefined); // an evaluator that died: its exit is reported instead
  const lines = createInterface({ input: child.stdout! });
  const pending = new Map<number, { resolve: (answer: any) => void; reject: (error: Error) => void }>();
  const name = `${client.name} ${kind} evaluator`;
  const failure = (what: string) => new Error(`${name}: ${what}\n--- its standard error ---\n${stderr}`);

  const ready = new Promise<string>((resolve, reject) => {
    let first = true;
    lines.on('line', (line) => {
      let message: any;
      try {
        message = JSON.parse(line);
      } catch {
        const error = failure(`wrote a line that is not JSON to standard output: ${line.slice(0, 500)}`);
        if (first) reject(error);
        for (const request of pending.values()) request.reject(error);
        pending.clear();
        return;
      }
      if (first) {
        first = false;
        if (message.ready === true) resolve(String(message.client ?? client.name));
        else reject(failure(`could not start: ${message.error ?? line}`));
        return;
      }
      const request = pending.get(message.id);
      if (!request) return;
      pending.delete(message.id);
      if (message.error !== undefined) request.reject(failure(`request ${message.id} failed: ${message.error}`));
      else request.resolve(message);
    });
    // A command that cannot be started (not built, not on PATH) emits this and may never exit.
    child.once('error', (error) => {
      if (first) reject(failure(`could not be started: ${String(error)}`));
      first = false;
    });
    child.once('exit', (code, signal) => {
      const error = failure(`exited (${signal ?? code})`);
      if (first) reject(error);
      for (const request of pending.values()) request.reject(error);
      pending.clear();
    });
  });

  let nextId = 1;
  const ask = (request: Record<string, unknown>): Promise<any> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (!isRunning(child)) return reject(failure('is not running'));
      pending.set(id, { resolve, reject });
      child.stdin?.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  };

  try {
    const clientVersion = await ready;
    return {
      clientVersion,
      pid: child.pid ?? 0,
      evaluate: (async (cases: unknown[]) => {
        const answer = await ask({ op: 'evaluate', cases });
        if (!Array.isArray(answer.results) || answer.results.length !== cases.length) {
          throw failure(`answered ${answer.results?.length} results for ${cases.length} cases`);
        }
        return answer.results;
      }) as Evaluator['evaluate'],
      stop: async () => {
        // An evaluator that neither answers nor exits is ended by endGroup's signals after a while:
        // cleanup, which decides no test.
        let patience: NodeJS.Timeout | undefined;
        const stopped = ask({ op: 'stop' }).catch(() => undefined);
        await Promise.race([stopped, new Promise((resolve) => (patience = setTimeout(resolve, 30_000)))]);
        clearTimeout(patience);
        await endGroup(child);
      },
      running: () => isRunning(child),
      stderr: () => stderr,
    };
  } catch (error) {
    await endGroup(child);
    throw error;
  }
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Closes its input (an evaluator closes its client and exits at the end of it), SIGTERM to the
 * group if it has not gone after a while, SIGKILL if even that is ignored; then waits until the
 * group is empty. The waits clean up after a stuck evaluator: no test passes or fails by them.
 */
async function endGroup(child: ChildProcess): Promise<void> {
  child.stdin?.end();
  // No pid: the process never started, so there is nothing to wait for.
  if (child.pid !== undefined && isRunning(child)) {
    const term = setTimeout(() => killGroup(child, 'SIGTERM'), 10_000);
    const kill = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
    await new Promise((resolve) => (isRunning(child) ? child.once('exit', resolve) : resolve(undefined)));
    clearTimeout(term);
    clearTimeout(kill);
  }
  // What the evaluator started and left behind (a Gradle or Maven daemon would be one) goes too.
  killGroup(child, 'SIGKILL');
  running.delete(child);
}
