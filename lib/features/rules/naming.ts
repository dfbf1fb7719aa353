import { ValidationFailed } from '../../errors.js';
import type { Project } from '../../projects/model.js';
import { compileNamingPattern, type NameMatcher } from '../../projects/naming.js';

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
