/**
 * What a bench run starts outlives it unless stopped: PostgreSQL runs as pg_ctl's daemon, Unleash
 * and our server are processes of their own (Unleash in its own process group), Chromium too.
 * These stop them whatever happens: at the end of the run, when a step fails, and when the run
 * is stopped with Ctrl-C or SIGTERM.
 */

/** One thing to stop; absent when it was never started. */
export type Stop = (() => unknown) | undefined;

/**
 * Runs each stop in turn, each on its own: one that throws is reported on stderr and the ones
 * after it still run (a browser that fails to close must not leave PostgreSQL running).
 */
export async function stopEach(stops: readonly Stop[]): Promise<void> {
  for (const stop of stops) {
    try {
      await stop?.();
    } catch (error) {
      console.error(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * `body`'s answer, with `cleanUp` run once after it, whether it ends or throws, or when the
 * process gets SIGINT or SIGTERM first (then the process exits 130 or 143 once `cleanUp` is
 * done). Start everything inside `body`, so a start that fails is cleaned up too.
 */
export async function withCleanUp<T>(cleanUp: () => Promise<void>, body: () => Promise<T>): Promise<T> {
  let cleaning: Promise<void> | undefined;
  const once = () => (cleaning ??= cleanUp());
  const onSignal = (signal: NodeJS.Signals) => void once().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await body();
  } finally {
    await once();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * What a run has started and not yet stopped, for a run that starts and stops things as it goes
 * (the payload comparison: an Unleash and a server per flag count, on one PostgreSQL). Each
 * `add` answers the thing's stop, which runs once whether the step that started it or a signal's
 * clean-up (`stopAll`, last started first) calls it, and then leaves the list.
 */
export class Running {
  private readonly stops = new Set<() => Promise<void>>();

  add(stop: () => unknown): () => Promise<void> {
    let stopping: Promise<void> | undefined;
    const once = (): Promise<void> => (stopping ??= (async () => {
      this.stops.delete(once);
      await stop();
    })());
    this.stops.add(once);
    return once;
  }

  /** Stops everything still running, the last started first, each on its own (stopEach). */
  stopAll(): Promise<void> {
    return stopEach([...this.stops].reverse());
  }
}
