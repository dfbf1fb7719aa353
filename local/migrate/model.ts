import type { AdminSide } from './http.js';

/**
 * What the plan says about one item of one kind: it is the same on both sides, it is to be
 * created or updated (with the fields that differ), pruned, or skipped with a reason.
 */
export type StepAction = 'same' | 'create' | 'update' | 'prune' | 'skip';

export interface Step {
  kind: string;
  key: string;
  action: StepAction;
  /** For an update: the fields that differ. For a skip: why. */
  detail?: string;
  /** The item's own write; a kind that writes in bulk (features) leaves it out and applies the steps itself. */
  run?: () => Promise<void>;
}

export interface Kind {
  name: string;
  plan(context: MigrationContext): Promise<Step[]>;
  /** Writes the planned steps; the default runs each step's `run`, one item at a time. */
  apply?(steps: Step[], context: MigrationContext, done: (step: Step, error?: unknown) => void): Promise<void>;
}

export interface TokenPair {
  tokenName: string;
  type: string;
  environment: string;
  projects: string[];
  fromSecret: string;
  toSecret: string;
  /** True when the target took the source's secret: the SDKs keep their token. */
  sameSecret: boolean;
}

export interface MigrationOptions {
  prune: boolean;
  dryRun: boolean;
}

export interface MigrationContext {
  from: AdminSide;
  to: AdminSide;
  options: MigrationOptions;
  /** People's keys (e-mail, else username) to the target's user ids, for group members. */
  userIdsByKey: Map<string, number>;
  tokenPairs: TokenPair[];
  /** What a person has to do: set a password through a link, give an SSO secret, hand out a new token. */
  needsPerson: string[];
}

/** Thrown by a step's write when the target turned out not to hold such an item at all: reported as skipped, not failed. */
export class StepSkipped extends Error {}
