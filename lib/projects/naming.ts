import { RE2JS, RE2JSException } from 're2js';
import { ValidationFailed } from '../errors.js';
import type { FeatureNaming } from './model.js';

/** `\s`, `\t` and the like: feature names are URL-friendly, so they never hold whitespace. */
const WHITESPACE_ESCAPES = new Set(['s', 't', 'n', 'r', 'f', 'v']);

/**
 * The largest compiled program a naming pattern may have. RE2 matches in time proportional to
 * program size times name length, so this bounds every check: a real naming rule compiles to
 * a few dozen instructions, while `(.{1,1000})` repeated a few times reaches tens of thousands.
 */
export const MAX_PATTERN_PROGRAM = 2_000;

export type NameMatcher = (name: string) => boolean;

/**
 * A project's naming pattern as a whole-name test, or why it cannot be one. Patterns run on
 * RE2 (re2js), which matches in linear time and never backtracks, so a pattern such as
 * `(a+)+b` cannot stall a request. RE2 has no backreferences or lookaround (they are what
 * needs backtracking), so such patterns are refused with the engine's own reason.
 */
export function compileNamingPattern(pattern: string): { matches: NameMatcher } | { problem: string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return { problem: `is not a valid RE2 regular expression (${error.message}); backreferences and lookaround are not supported` };
  }
  // re2js exposes the compiled program; its size is what a match costs per character.
  const size = (compiled.re2().prog as { numInst(): number }).numInst();
  if (size > MAX_PATTERN_PROGRAM) {
    return { problem: `is too complex (it compiles to ${size} instructions, at most ${MAX_PATTERN_PROGRAM}); use smaller repetition counts` };
  }
  // testExact anchors both ends, as `^(?:pattern)$` would, whatever alternations the pattern has.
  return { matches: (name) => compiled.testExact(name) };
}

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
