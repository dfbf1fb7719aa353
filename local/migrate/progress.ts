import { StepSkipped, type Step } from './model.js';

/**
 * How a run shows it is moving: a bar redrawn in place on a terminal, one line per step
 * otherwise (a CI log or a file keeps every line).
 */
export interface Progress {
  start(kind: string, total: number): void;
  step(step: Step, error?: unknown): void;
  line(text: string): void;
  end(): void;
}

export function progressFor(write: (text: string) => void, terminal: boolean): Progress {
  let kind = '';
  let total = 0;
  let done = 0;
  const draw = () => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    write(`\r${kind.padEnd(16)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
  return {
    start(name, count) {
      kind = name;
      total = count;
      done = 0;
      if (terminal) draw();
    },
    step(step, error) {
      done += 1;
      if (terminal) {
        if (error !== undefined) write(`\r\x1b[K${step.kind}: ${step.key}: ${outcome(error)}\n`);
        draw();
      } else {
        write(`${step.kind}: ${step.action} ${step.key}${error === undefined ? '' : `: ${outcome(error)}`}\n`);
      }
    },
    line(text) {
      write(`${terminal ? '\r\x1b[K' : ''}${text}\n`);
    },
    end() {
      if (terminal && kind !== '') write('\n');
      kind = '';
    },
  };
}

const outcome = (error: unknown) => (error instanceof StepSkipped ? `skipped: ${error.message}` : `failed: ${messageOf(error)}`);

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
