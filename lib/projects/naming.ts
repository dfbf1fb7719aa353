import { ValidationFailed } from '../errors.js';
import { compileNamingPattern } from '../features/rules/naming.js';
import type { FeatureNaming } from './model.js';

/** `\s`, `\t` and the like: feature names are URL-friendly, so they never hold whitespace. */
const WHITESPACE_ESCAPES = new Set(['s', 't', 'n', 'r', 'f', 'v']);

/**
 * A project's feature naming rule (§6.8), checked when it is set so that feature creation
 * never meets a pattern that cannot compile or would cost too much to run.
 */
export function checkFeatureNaming(naming: FeatureNaming | null): void {
  if (!naming) return;
  const { pattern, example } = naming;
  if (!pattern) {
    if (example) throw new ValidationFailed('featureNaming.example: an example needs a pattern to follow');
    return;
  }
  const whitespace = whitespaceIn(pattern);
  if (whitespace) {
    throw new ValidationFailed(`featureNaming.pattern: must not match whitespace (found ${whitespace}); feature names never contain it`);
  }
  const compiled = compileNamingPattern(pattern);
  if ('problem' in compiled) throw new ValidationFailed(`featureNaming.pattern: ${compiled.problem}`);
  if (example && !compiled.matches(example)) {
    throw new ValidationFailed(`featureNaming.example: "${example}" does not match the pattern ^${pattern}$`);
  }
}

/** The first whitespace escape or literal whitespace in a pattern, skipping escaped backslashes. */
function whitespaceIn(pattern: string): string | undefined {
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next !== undefined && WHITESPACE_ESCAPES.has(next)) return `\\${next}`;
      index += 1;
    } else if (/\s/.test(char)) {
      return JSON.stringify(char);
    }
  }
  return undefined;
}
