import { describe, expect, it, vi } from 'vitest';
import { Running, stopEach, withCleanUp } from '../../local/bench/clean-up.js';

// The UI benches start PostgreSQL (a daemon), Unleash, our server and Chromium: these hold that
// each is stopped whatever fails.
describe('bench clean-up', () => {
  it('runs every stop, in order, when one before it throws, and skips what never started', async () => {
    const stopped: string[] = [];
    await stopEach([
      () => { stopped.push('browser'); throw new Error('the browser did not close'); },
      undefined,
      async () => { stopped.push('unleash'); await Promise.reject(new Error('gone already')); },
      () => stopped.push('postgres'),
      async () => { stopped.push('ours'); },
    ]);
    expect(stopped).toEqual(['browser', 'unleash', 'postgres', 'ours']);
  });

  it('cleans up once when the body fails, passes its error on, and leaves no signal handler behind', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    let cleanUps = 0;
    let during: number[] = [];
    const failed = withCleanUp(async () => { cleanUps += 1; }, async () => {
      during = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
      throw new Error('PostgreSQL did not start');
    });
    await expect(failed).rejects.toThrow('PostgreSQL did not start');
    expect(cleanUps).toBe(1);
    expect(during).toEqual(before.map((count) => count + 1));
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('on a signal, runs the clean-ups of nested runs innermost first and exits once both are done', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const order: string[] = [];
    let exited!: (code: number) => void;
    const exit = new Promise<number>((resolve) => { exited = resolve; });
    const exitSpy = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => { order.push('exit'); exited(code ?? 0); }) as never);
    let interrupted!: () => void;
    const stalled = new Promise<void>((resolve) => { interrupted = resolve; });
    try {
      const outer = withCleanUp(async () => { order.push('outer'); }, () => withCleanUp(
        async () => {
          // Slower than the outer one: an outer level that exits on its own finishes first.
          await Promise.resolve();
          order.push('inner');
          interrupted();
        },
        async () => {
          process.emit('SIGTERM', 'SIGTERM');
          await stalled;
        },
      ));
      expect(await exit).toBe(143);
      await outer;
    } finally {
      exitSpy.mockRestore();
    }
    expect(order).toEqual(['inner', 'outer', 'exit']);
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('stops what is still running, the last started first, and each thing once', async () => {
    const stopped: string[] = [];
    const running = new Running();
    running.add(() => stopped.push('postgres'));
    const stopUnleash = running.add(async () => { stopped.push('unleash'); });
    running.add(() => stopped.push('dynamo'));
    await stopUnleash();
    await stopUnleash();
    await running.stopAll();
    await running.stopAll();
    expect(stopped).toEqual(['unleash', 'dynamo', 'postgres']);
  });

  it('does not run a stop again when a signal\'s clean-up comes while the step\'s own stop is under way', async () => {
    let stops = 0;
    let finish!: () => void;
    const running = new Running();
    const stop = running.add(() => { stops += 1; return new Promise<void>((resolve) => { finish = resolve; }); });
    const byStep = stop();
    const byCleanUp = running.stopAll();
    finish();
    await Promise.all([byStep, byCleanUp, stop()]);
    expect(stops).toBe(1);
  });

  it('answers the body\'s result after cleaning up', async () => {
    const order: string[] = [];
    const answer = await withCleanUp(async () => { order.push('clean-up'); }, async () => { order.push('body'); return 42; });
    expect(answer).toBe(42);
    expect(order).toEqual(['body', 'clean-up']);
  });
});
