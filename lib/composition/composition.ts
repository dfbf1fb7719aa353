import type { AppConfig } from '../config.js';
import type { MetricsQueue } from '../client/metrics-stages.js';
import type { SliceContext } from '../slice.js';
import { connectStore, type StoreContext } from '../store/context.js';

/**
 * One process's composition: the slice context, and one instance of each shared part, built on
 * first use. A function builds only what its slices ask for; the local runtime and the tests
 * build every group's slices on one composition, so each part still exists once per process.
 */
export interface Composition extends SliceContext {
  /** Where SDK metrics reports go: the local runtime's queue; SQS or in the request otherwise. */
  metricsQueue?: MetricsQueue | undefined;
  /** `build`'s result on this composition, built on the first call (keyed by the function itself). */
  once<T>(build: (composition: Composition) => T): T;
}

export type Builder<T> = (composition: Composition) => T;

export interface CompositionOptions {
  store?: StoreContext;
  now?: () => Date;
  metricsQueue?: MetricsQueue;
  /**
   * Stand-ins built instead of some builders, keyed by the builder they replace: a test composes
   * every function as usual with one part changed (registrations capped at three), and every
   * slice that asks for that part gets the stand-in.
   */
  replace?: ReadonlyArray<readonly [Builder<unknown>, Builder<unknown>]>;
}

export function createComposition(config: AppConfig, options: CompositionOptions = {}): Composition {
  const built = new Map<unknown, unknown>();
  const standIns = new Map<unknown, Builder<unknown>>(options.replace ?? []);
  const composition: Composition = {
    config,
    store: options.store ?? connectStore(config),
    now: options.now,
    metricsQueue: options.metricsQueue,
    once<T>(build: (composition: Composition) => T): T {
      if (!built.has(build)) built.set(build, (standIns.get(build) ?? build)(composition));
      return built.get(build) as T;
    },
  };
  return composition;
}
