import type { ChildProcess } from 'node:child_process';

/**
 * What every test that starts a process (npm start, an evaluator, Unleash Edge, a build) needs to
 * stop it whatever happens: each is spawned `detached`, leader of a group of its own, so one
 * signal to the group reaches whatever it started too.
 */

/** Resolves with the exit code (null when a signal ended it) once the process is gone. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Signals the child's whole process group; an empty group is not an error. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}
