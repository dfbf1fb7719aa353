/** What favourites read of other resources. */
export interface FavouritePorts {
  /** The flag's project, or undefined when no flag has the name (archived flags included). */
  projectOfFeature(featureName: string): Promise<string | undefined>;
  /** Resolves for a project that exists; NotFound otherwise. */
  ensureProject(projectId: string): Promise<void>;
}
