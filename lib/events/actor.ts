import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is making the current change. The HTTP chain sets it once per request (the API token's
 * name), so change events can say who acted without every service call carrying it.
 */
const actor = new AsyncLocalStorage<string>();

export function runAs<T>(name: string, work: () => Promise<T>): Promise<T> {
  return actor.run(name, work);
}

export function currentActor(): string {
  return actor.getStore() ?? 'system';
}
