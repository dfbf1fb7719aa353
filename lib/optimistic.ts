import { Conflict } from './errors.js';

/** How often a read-then-write step runs before a concurrent writer is reported as a conflict. */
const ATTEMPTS = 5;

/**
 * Runs a read-then-write step again while it answers undefined, which a step does when its
 * conditional write found the item changed since it was read (optimistic concurrency).
 */
export async function retryOnChange<T>(what: string, step: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const result = await step();
    if (result !== undefined) return result;
  }
  throw new Conflict(`The ${what} kept changing while this change was applied; try again`);
}
