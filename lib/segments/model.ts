import type { Constraint } from '../features/model.js';

/** A named, reusable list of constraints; global (`project` null) or scoped to one project. */
export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdAt: string;
  createdBy: string | null;
}
