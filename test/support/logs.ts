import { vi } from 'vitest';

/**
 * Captures what the service logs. The Powertools logger writes to process.stdout and
 * process.stderr through its own Console, not through the global `console`.
 */
export function captureLogs(): { text: () => string; restore: () => void } {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return {
    text: () => lines.join(''),
    restore: () => {
      out.mockRestore();
      err.mockRestore();
    },
  };
}
