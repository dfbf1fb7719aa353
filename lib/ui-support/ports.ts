import type { Feature } from '../features/model.js';
import type { Project } from '../projects/model.js';

/** What the instance's own figures are, as Admin settings → Instance stats names them. */
export interface InstanceFacts {
  instanceId: string;
  version: string;
  /** Single sign-on is on. */
  oidcEnabled: boolean;
}

/** What the admin UI's supporting pages read of other resources. */
export interface UiSupportPorts {
  /** The project, or NotFound as the project's own pages answer. */
  project(projectId: string): Promise<Project>;
  /** One project's flags, archived ones too, from its own partition (ADR 17). */
  projectFeatures(projectId: string): Promise<Feature[]>;
  /** Active flags of every project, from the projects' counts (no flag read). */
  activeFeatureCount(): Promise<number>;
  instance(): Promise<InstanceFacts>;
  /** When each user was last seen (null: never). */
  userSeenTimes(): Promise<Array<string | null>>;
  /** Each API token's type. */
  apiTokenTypes(): Promise<string[]>;
  projectCount(): Promise<number>;
  contextFieldCount(): Promise<number>;
  groupCount(): Promise<number>;
  environmentCount(): Promise<number>;
  segmentCount(): Promise<number>;
  /** Strategy types, the built-in ones included. */
  strategyTypeCount(): Promise<number>;
}
