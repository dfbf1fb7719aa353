import { ValidationFailed } from '../../errors.js';
import type { Project } from '../../projects/model.js';

/** A project's `featureNaming.pattern`, anchored as Unleash anchors it. */
export function checkFeatureName(name: string, project: Project): void {
  const naming = project.featureNaming;
  if (!naming?.pattern) return;
  if (new RegExp(`^(?:${naming.pattern})$`).test(name)) return;
  const hints = [
    `the project ${project.id} requires feature names to match ${naming.pattern}`,
    naming.example ? `for example ${naming.example}` : undefined,
    naming.description ?? undefined,
  ].filter(Boolean);
  throw new ValidationFailed(`name: ${hints.join('; ')}`);
}
