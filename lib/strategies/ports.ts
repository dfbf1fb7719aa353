/** What the strategy types read of other resources. */

/** A feature that has a strategy of some type, as a refused delete names it. */
export interface StrategyTypeUser {
  name: string;
  project: string;
  archived: boolean;
}

export interface StrategyPorts {
  /** The features, archived ones too, with at least one strategy of type `name`. */
  featuresUsing(name: string): Promise<StrategyTypeUser[]>;
}
