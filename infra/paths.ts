import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, so entries and the lock file resolve the same from the CLI and from tests. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export const fromRoot = (...segments: string[]): string => path.join(projectRoot, ...segments);
