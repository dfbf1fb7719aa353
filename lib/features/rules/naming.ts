import { RE2JS, RE2JSException } from 're2js';
import { ValidationFailed } from '../../errors.js';
import type { Project } from '../../projects/model.js';

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

/** A project's `featureNaming.pattern`, matched against the whole name as Unleash anchors it. */
export function checkFeatureName(name: string, project: Project): void {
  const naming = project.featureNaming;
  if (!naming?.pattern) return;
  if (projectNameMatcher(project)(name)) return;
  const hints = [
    `the project ${project.id} requires feature names to match ${naming.pattern}`,
    naming.example ? `for example ${naming.example}` : undefined,
    naming.description ?? undefined,
  ].filter(Boolean);
  throw new ValidationFailed(`name: ${hints.join('; ')}`);
}

/**
 * The project's naming test. A pattern saved before patterns ran on RE2 may not compile there
 * (a backreference, a lookahead) or be too costly: such a project takes no new names until an
 * admin fixes it, rather than running the pattern on a backtracking engine.
 */
export function projectNameMatcher(project: Project): NameMatcher {
  const pattern = project.featureNaming?.pattern;
  if (!pattern) return () => true;
  const compiled = compileNamingPattern(pattern);
  if ('matches' in compiled) return compiled.matches;
  throw new ValidationFailed(
    `name: the naming pattern of the project ${project.id} ${compiled.problem}; an admin must update it before features are added`,
  );
}
