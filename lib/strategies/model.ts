export type StrategyParameterType = 'string' | 'percentage' | 'list' | 'number' | 'boolean';

export interface StrategyParameter {
  name: string;
  type: StrategyParameterType;
  description: string;
  required: boolean;
}

export interface StrategyType {
  name: string;
  title: string | null;
  displayName: string | null;
  description: string | null;
  /** Built-in types are not editable; custom ones are. */
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
  sortOrder: number;
}

/** Custom types sort after the built-ins, then by name, as Unleash lists them. */
export const CUSTOM_SORT_ORDER = 9999;

const param = (
  name: string,
  type: StrategyParameterType,
  description: string,
  required = false,
): StrategyParameter => ({ name, type, description, required });

const builtIn = (
  sortOrder: number,
  name: string,
  displayName: string | null,
  description: string,
  parameters: StrategyParameter[],
  deprecated = false,
): StrategyType => ({
  name, title: null, displayName, description, editable: false, deprecated, parameters, sortOrder,
});

/**
 * The three deprecated rollout types: name, description, and whether a group id makes them
 * sticky. Unleash gives them no display name, so the admin UI shows their names.
 */
const GRADUAL_ROLLOUTS: ReadonlyArray<readonly [string, string, boolean]> = [
  ['gradualRolloutUserId', 'On for a share of signed-in users, sticky by user id. Deprecated: use flexibleRollout.', true],
  ['gradualRolloutSessionId', 'On for a share of sessions, sticky by session id. Deprecated: use flexibleRollout.', true],
  ['gradualRolloutRandom', 'On for a share of requests, chosen at random on each. Deprecated: use flexibleRollout.', false],
];

/** Unleash's definitions: `percentage` optional, and a required `groupId` for the sticky two. */
function gradualRolloutParameters(sticky: boolean): StrategyParameter[] {
  const percentage = param('percentage', 'percentage', 'Share (0 to 100) that gets the feature', false);
  if (!sticky) return [percentage];
  return [percentage, param('groupId', 'string', 'Hashing seed: rollouts with the same group id select the same users', true)];
}

/**
 * The strategy types every instance has from its first start. They live in code, not in the
 * table: only a change of their `deprecated` state is stored, as an overlay.
 */
export const BUILT_IN_STRATEGY_TYPES: readonly StrategyType[] = [
  builtIn(0, 'flexibleRollout', 'Gradual rollout', 'Turns the feature on for a share of users, sticky by a context field.', [
    param('rollout', 'percentage', 'Share of users (0 to 100) who get the feature', false),
    param('stickiness', 'string', 'Context field that keeps one user in or out across requests', false),
    param('groupId', 'string', 'Hashing seed: rollouts with the same group id select the same users', false),
  ]),
  builtIn(1, 'default', 'Standard', 'On for everyone when the environment is on.', []),
  builtIn(
    2,
    'userWithId',
    'UserIDs',
    'On for the listed user ids.',
    [param('userIds', 'list', 'User ids that get the feature', false)],
    true,
  ),
  builtIn(3, 'remoteAddress', 'IPs', 'On for requests from the listed IP addresses.', [
    param('IPs', 'list', 'IP addresses that get the feature', true),
  ]),
  builtIn(4, 'applicationHostname', 'Hosts', 'On for application instances on the listed host names.', [
    param('hostNames', 'list', 'Host names that get the feature', false),
  ]),
  // Unleash's first rollout types, superseded by flexibleRollout and deprecated there. Every SDK
  // still evaluates them, so features that use them (imported, or made by scripts) keep working.
  ...GRADUAL_ROLLOUTS.map(([name, description, sticky], index) =>
    builtIn(5 + index, name, null, description, gradualRolloutParameters(sticky), true),
  ),
];

export function builtInStrategyType(name: string): StrategyType | undefined {
  return BUILT_IN_STRATEGY_TYPES.find((type) => type.name === name);
}

export function compareStrategyTypes(a: StrategyType, b: StrategyType): number {
  return a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);
}
