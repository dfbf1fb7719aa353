import type { Environment } from '../environments/model.js';
import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import type { Project } from '../projects/model.js';
import type { User } from '../users/model.js';
import type { UsageCount } from './snapshot.js';

/**
 * What insights and project statistics read from the rest of the instance, bound to the
 * stores it reads in lib/composition/slices/insights.ts.
 */
export interface InsightCatalog {
  users(): Promise<Array<Pick<User, 'seenAt'>>>;
  /** Every feature, archived ones included. */
  allFeatures(): Promise<readonly Feature[]>;
  /** Every feature of one project, archived ones included, reading only that project's items. */
  projectFeatures(projectId: string): Promise<readonly Feature[]>;
  projects(): Promise<Project[]>;
  environments(): Promise<Environment[]>;
  /** Change events with from <= createdAt < to, oldest first. */
  eventsBetween(from: Date, to: Date): Promise<ChangeEvent[]>;
  /** How many times the reader of `eventsBetween` found an event committed after it settled (lib/events/settled-months.ts). */
  lateCommitsFound?(): number;
  /** One feature's change events with from <= createdAt < to, oldest first (its own partition of the events index). */
  featureEventsBetween(featureName: string, from: Date, to: Date): Promise<ChangeEvent[]>;
  /** SDK usage counts of one UTC day (`yyyy-mm-dd`). */
  usage(day: string): Promise<UsageCount[]>;
}

/** The part of the catalogue one project's statistics read. */
export type ProjectStatsCatalog = Pick<InsightCatalog, 'projectFeatures' | 'environments' | 'eventsBetween' | 'lateCommitsFound' | 'featureEventsBetween'>;
