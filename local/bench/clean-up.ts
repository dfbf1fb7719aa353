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

/** The clean-ups of the withCleanUp calls under way, outermost first. */
const active: Array<() => Promise<void>> = [];
let signalled = false;

/**
 * One handler for every withCleanUp under way (the poll bench runs the payload comparison inside
 * its own): a signal runs all their clean-ups, innermost first, and exits only once every one is
 * done, so that one level's exit cannot cut another's clean-up short.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (signalled) return;
  signalled = true;
  void stopEach([...active].reverse()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}

/**
 * `body`'s answer, with `cleanUp` run once after it, whether it ends or throws, or when the
 * process gets SIGINT or SIGTERM first (then the process exits 130 or 143 once `cleanUp`, and
 * that of any withCleanUp it runs inside or around, is done). Start everything inside `body`,
 * so a start that fails is cleaned up too.
 */
export async function withCleanUp<T>(cleanUp: () => Promise<void>, body: () => Promise<T>): Promise<T> {
  let cleaning: Promise<void> | undefined;
  const once = () => (cleaning ??= cleanUp());
  active.push(once);
  if (active.length === 1) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    return await body();
  } finally {
    await once();
    active.splice(active.indexOf(once), 1);
    if (active.length === 0) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      signalled = false;
    }
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
