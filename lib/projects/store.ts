import type { DefaultStrategy, Project, ProjectSettings } from './model.js';

/** A project as listed, with the count of its active features that the feature store keeps. */
export interface StoredProject {
  project: Project;
  /** Non-archived features; the feature store moves it in the same transaction as the features. */
  featureCount: number;
}

export type EnvironmentLinkOutcome = 'done' | 'project-missing' | 'environment-missing' | 'already-added';
export type EnvironmentUnlinkOutcome = 'done' | 'project-missing' | 'not-added' | 'last-environment';

/**
 * The project store port; `dynamo-store.ts` beside it implements it on DynamoDB. Each write
 * records a change event naming `actor`, in the same transaction.
 */
export interface ProjectStore {
  list(): Promise<StoredProject[]>;
  get(id: string): Promise<Project | undefined>;
  /** Answers false when the id is taken. The feature count starts at zero. */
  insert(project: Project, actor: string): Promise<boolean>;
  /** Replaces the settings only (the feature count and environments stay); false when missing. */
  updateSettings(id: string, settings: ProjectSettings, updatedAt: string, actor: string): Promise<boolean>;
  /**
   * Deletes the project only while it has no active features, so a feature created
   * concurrently either lands first (and the delete is refused) or fails on the missing project.
   */
  deleteIfEmpty(id: string, actor: string): Promise<'done' | 'missing' | 'has-features'>;
  /** Adds an environment and bumps the SDK revision in one transaction. */
  addEnvironment(id: string, environment: string, actor: string): Promise<EnvironmentLinkOutcome>;
  /** Removes an environment (never the last one) and bumps the SDK revision in one transaction. */
  removeEnvironment(id: string, environment: string, actor: string): Promise<EnvironmentUnlinkOutcome>;
  /** Answers false when the project is missing or the environment is not added to it. */
  setDefaultStrategy(id: string, environment: string, strategy: DefaultStrategy, actor: string): Promise<boolean>;
}
