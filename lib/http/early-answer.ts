import type { Context } from 'aws-lambda';

/** A request still running, and what fails it when its early answer is due. */
interface Running {
  /** Epoch ms at which the request is answered early if its handler has not finished. */
  due: number;
  fail: (error: unknown) => void;
}

/**
 * Answers a request `earlyMs` before its function's end when the handler has not finished by
 * then (the answer is whatever `refusal` throws), as middy's `timeoutEarlyInMillis` did: the
 * handler keeps running, its late result is dropped. A context without a clock (a bare test
 * double) sets no deadline.
 *
 * One timer serves every request, armed for the earliest one due and left armed when requests
 * end: a warm function then sets a timer about once per timeout rather than one per request, and
 * clears none. Each request costs a set entry. The timer holds the process open only while a
 * request is running (a local script that invoked a handler exits when it is done).
 */
export class EarlyAnswers {
  private readonly running = new Set<Running>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires; Infinity when none is armed. */
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly earlyMs: number,
    private readonly refusal: () => never,
  ) {}

  /** What `handling` settles to, unless its early answer is due first. */
  answer<T>(handling: Promise<T>, context: Context | undefined): Promise<T> {
    if (typeof context?.getRemainingTimeInMillis !== 'function') return handling;
    const due = Date.now() + context.getRemainingTimeInMillis() - this.earlyMs;
    return new Promise<T>((resolve, reject) => {
      const request: Running = { due, fail: reject };
      this.add(request);
      handling.then(
        (value) => {
          this.remove(request);
          resolve(value);
        },
        (error: unknown) => {
          this.remove(request);
          reject(error);
        },
      );
    });
  }

  private add(request: Running): void {
    this.running.add(request);
    if (request.due < this.armedFor) this.arm(request.due);
    else if (this.running.size === 1) this.timer?.ref();
  }

  private remove(request: Running): void {
    this.running.delete(request);
    if (this.running.size === 0) this.timer?.unref();
  }

  private arm(due: number): void {
    clearTimeout(this.timer);
    this.armedFor = due;
    this.timer = setTimeout(this.fire, Math.max(0, due - Date.now()));
  }

  /** Fails every request now due, and arms the timer for the next one. */
  private readonly fire = (): void => {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const request of this.running) {
      if (request.due <= now) {
        this.running.delete(request);
        try {
          this.refusal();
        } catch (error) {
          request.fail(error);
        }
      } else if (request.due < next) {
        next = request.due;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  };
}
