import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { exited, killGroup } from './process-group.js';

export interface StartedServer {
  url: string;
  /** The process started (node, or npm), leader of its own process group. */
  pid: number;
  /** Resolves once nothing of its process group is left, however long that takes. */
  groupEnded(): Promise<void>;
  output: () => string;
  /** Resolves with the exit code (null when a signal ended it) once the `npm start` process is gone. */
  exited: Promise<number | null>;
  /** Sends SIGTERM, as `kill` would, and resolves with the exit code once its whole process group is gone. */
  stop(): Promise<number | null>;
}

/**
 * Every `npm start` a test process runs, by process group. Each runs in a group of its own
 * (`detached`), with the Java engine it starts, so a start that hangs, fails or is killed
 * outright never leaves an engine behind: `stopStartedServers` (afterAll) ends them all.
 */
const running = new Set<ChildProcess>();

// Last resort for a test file that could not stop its server (a hook that timed out before it
// got hold of it): when the worker exits, nothing it started outlives it.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

export interface StartOptions {
  /** Through `npm start` itself (npm, then `sh -c`, then node) rather than its script directly. */
  viaNpm?: boolean;
}

/**
 * Runs `npm start`'s own script (`node --no-allocation-site-pretenuring --import tsx scripts/start.ts`, one process, its group's
 * leader), or `npm start` itself.
 */
export function spawnStart(env: Record<string, string>, args: string[] = [], options: StartOptions = {}): { child: ChildProcess; output: () => string } {
  const [command, commandArgs] = options.viaNpm
    ? ['npm', ['start', '--', ...args]]
    : [process.execPath, ['--no-allocation-site-pretenuring', '--import', 'tsx', 'scripts/start.ts', ...args]];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/**
 * Starts `npm start` and waits for the URL its banner prints, however long the engine takes:
 * the caller's hook timeout bounds the wait, and `stopStartedServers` cleans up after it.
 */
export async function startServerProcess(env: Record<string, string>, args: string[] = [], options: StartOptions = {}): Promise<StartedServer> {
  const { child, output } = spawnStart(env, args, options);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output()}`)));
  });
  return { url, pid: child.pid ?? 0, output, exited: exited(child), groupEnded: () => groupEnded(child), stop: () => stopGroup(child) };
}

/** Runs `npm start` until it exits on its own (a start that fails). */
export async function runStartToExit(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnStart(env, args);
  const code = await exited(child);
  await stopGroup(child);
  return { code, output: output() };
}

/** Stops every server this test process started and has not stopped yet. */
export async function stopStartedServers(): Promise<void> {
  await Promise.all([...running].map((child) => stopGroup(child)));
}

/**
 * SIGTERM to the leader (it stops its engine itself, which the tests check), SIGKILL to the
 * group if it has not gone within a minute, then SIGKILL to whatever is left of the group (an
 * engine whose parent was killed outright).
 */
async function stopGroup(child: ChildProcess): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 60_000);
    child.kill('SIGTERM');
    await exited(child);
    clearTimeout(force);
  }
  killGroup(child, 'SIGKILL');
  await groupGone(child);
  running.delete(child);
  return child.exitCode;
}

/**
 * Signals take a moment to land: wait until nothing of the group is left (a member the
 * system has not reaped yet holds no port, so after a few seconds waiting stops).
 */
async function groupGone(child: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 5_000 && groupAlive(child); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function groupEnded(child: ChildProcess): Promise<void> {
  while (groupAlive(child)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * Whether a member of the group still runs. A member that has exited but is not reaped yet (a
 * zombie) does not count: orphans are reaped by PID 1, which in some sandboxes does so only now
 * and then, and `kill(-pgid, 0)` would report the group alive until it does.
 */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  if (existsSync('/proc/self/stat')) return liveMembers(child.pid) > 0;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Processes in the group that still run, from /proc (Linux). A process counts until every one
 * of its threads is a zombie: a killed JVM's main thread turns zombie while others still close
 * its sockets.
 */
function liveMembers(pgid: number): number {
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const [, pgrp] = statOf(`/proc/${entry}/stat`);
    if (Number(pgrp) !== pgid) continue;
    const threads = safeList(`/proc/${entry}/task`);
    if (threads.some((thread) => statOf(`/proc/${entry}/task/${thread}/stat`)[0] !== 'Z')) live += 1;
  }
  return live;
}

/** State and process group of a /proc stat file; Z (gone) when it has vanished meanwhile. */
function statOf(file: string): [state: string, pgrp: string] {
  try {
    const stat = readFileSync(file, 'utf8');
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
    const [state = 'Z', , pgrp = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [state, pgrp];
  } catch {
    return ['Z', ''];
  }
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
