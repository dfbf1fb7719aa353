import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A reason `npm start` cannot go on, told in one line that says what to do about it. */
export class StartupProblem extends Error {}

/**
 * The data directory must take files (the engine's database, the generated token and key):
 * a probe file tells, where permission bits would not (root) and a read-only mount would.
 */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupProblem(
      `cannot write the data directory ${dir} (${code}); choose another with DATA_DIR, or run without one: npm start -- --in-memory`,
    );
  }
}

/** One line for whatever stopped the start, without a stack trace. */
export function describeStartupFailure(error: unknown, context: { port: number }): string {
  if (error instanceof StartupProblem) return error.message;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return `port ${context.port} is already in use on 127.0.0.1; stop what holds it, or set PORT to another port`;
  if (code === 'EACCES' && /listen/.test(message)) return `port ${context.port} needs privileges this user lacks; set PORT to a port above 1023`;
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
