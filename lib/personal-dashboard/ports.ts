import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import type { LastSeenReader } from '../features/ports.js';
import type { Favourites } from '../favourites/model.js';
import type { Project } from '../projects/model.js';
import type { User } from '../users/model.js';

/** What the personal dashboard and the profile read of other resources. */
export interface PersonalDashboardPorts {
  /** The project, or undefined when none has the id. */
  project(projectId: string): Promise<Project | undefined>;
  /** Every flag, archived ones too, as the admin read model holds them (a warm container reads only what changed). */
  everyFeature(): Promise<readonly Feature[]>;
  /** The user's stars (lib/favourites). */
  favouritesOf(userId: number): Promise<Favourites>;
  /** Every user; the dashboard names the administrators. */
  users(): Promise<User[]>;
  /** Change events with from <= createdAt < to, newest first, a page at a time (stop iterating to stop reading). */
  newestEvents(from: Date, to: Date): AsyncIterable<ChangeEvent[]>;
  /** When SDKs last reported a flag (the project's onboarding status). */
  lastSeen: LastSeenReader;
  /** The project's health in the daily insight snapshots, newest first. */
  projectHealthHistory(projectId: string): Promise<number[]>;
}
