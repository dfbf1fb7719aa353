/**
 * The single-table design: the one place that names attributes and spells keys.
 * The CDK stack and the local engine both create the table from `tableDefinition`;
 * stores build every key with the builders below. This file imports nothing from the
 * AWS SDK so the CDK app can read it too.
 *
 * Small, admin-managed collections live in one partition each (`pk` = the collection,
 * `sk` = the member). A Query on that partition lists the collection with a strongly
 * consistent read, and GetItem on (pk, sk) reads one member.
 *
 * | access pattern                     | key condition                                      | index |
 * |------------------------------------|----------------------------------------------------|-------|
 * | get a strategy type by name        | pk = STRATEGY_TYPES, sk = STRATEGY_TYPE#<name>     | table |
 * | list strategy types                | pk = STRATEGY_TYPES, begins_with(sk, STRATEGY_TYPE#) | table |
 * | find an API token by secret        | pk = API_TOKENS, sk = API_TOKEN#<sha256(secret)>   | table |
 * | find an API token by its id        | pk = API_TOKENS, begins_with(sk, API_TOKEN#<id>)   | table |
 * | list API tokens                    | pk = API_TOKENS, begins_with(sk, API_TOKEN#)       | table |
 * | read the SDK revision (all shards) | pk = REVISION (Query, strongly consistent)         | table |
 * | move the revision (one shard)      | pk = REVISION, sk = SHARD#<00..31>                 | table |
 * | what changed at a shard's revisions | pk = REVISION_CHANGES#SHARD#<nn>, sk between <from> and <to> (12 digits) | table |
 * | read the instance identity         | pk = INSTANCE, sk = INSTANCE                       | table |
 * | get a feature (aggregate) by name  | pk = FEATURES, sk = FEATURE#<name>                 | table |
 * | list all features (SDK payload)    | pk = FEATURES, begins_with(sk, FEATURE#)           | table |
 * | list one project's features (copies) | pk = PROJECT_FEATURES#<project>, begins_with(sk, FEATURE#) | table |
 * | lifecycle stages SDK metrics wrote on a project's flags, and whether all are there | pk = METRICS_STAGES#<project>, sk = FEATURE#<name> / COMPLETE | table |
 * | has a data migration run           | pk = MIGRATIONS, sk = MIGRATION#<name>             | table |
 * | get / list projects                | pk = PROJECTS, sk = PROJECT#<id> / begins_with     | table |
 * | a project's feature count (shards) | pk = PROJECTS, begins_with(sk, FEATURE_COUNT#<id>#) | table |
 * | every project's feature count      | pk = PROJECTS, begins_with(sk, FEATURE_COUNT#)     | table |
 * | move one shard of a project's count | pk = PROJECTS, sk = FEATURE_COUNT#<id>#<00..15>   | table |
 * | get / list environments            | pk = ENVIRONMENTS, sk = ENVIRONMENT#<name> / …     | table |
 * | get / list segments                | pk = SEGMENTS, sk = SEGMENT#<id, 10 digits> / …    | table |
 * | is a segment name taken (guard)    | pk = SEGMENT_NAMES, sk = SEGMENT_NAME#<name>       | table |
 * | get / list context fields          | pk = CONTEXT_FIELDS, sk = CONTEXT_FIELD#<name> / … | table |
 * | get / list tag types               | pk = TAG_TYPES, sk = TAG_TYPE#<name> / …           | table |
 * | list tags, all or of one type      | pk = TAGS, begins_with(sk, TAG#[<type>#])          | table |
 * | next id of a numbered kind         | pk = COUNTERS, sk = COUNTER#<kind>                 | table |
 * | has the first start's data been made | pk = SEED, sk = SEED                             | table |
 * | last seen of a feature environment | pk = LAST_SEEN, sk = LAST_SEEN#<feature>#<env> / … | table |
 * | hourly SDK metrics of one day      | pk = METRICS#<yyyy-mm-dd>, sk = FEATURE#<feature>#<hh>#<env> (TTL) | table |
 * | one feature's metrics of some hours of a day | pk = METRICS#<yyyy-mm-dd>, sk between FEATURE#<feature>#<from hh># and FEATURE#<feature>#<to hh>$ | table |
 * | counters under the hour-first keys (until 48 h after the change) | pk = METRICS#<yyyy-mm-dd>, begins_with(sk, <hh>#<feature>#) (TTL) | table |
 * | up to which hour hour-first counters may exist | pk = METRICS#KEY_FORMAT, sk = FEATURE_FIRST | table |
 * | names SDKs reported that are no flag (unknown flags) | pk = UNKNOWN_FLAGS, sk = UNKNOWN_FLAG#<name> / … (TTL) | table |
 * | registered SDK applications        | pk = CLIENT_APPS, sk = CLIENT_APP#<appName>#<sha256(scope)> / … (TTL) | table |
 * | a token scope's live registrations | pk = CLIENT_APPS, sk between CLIENT_APP_COUNT#<sha256(scope)>#<today> and …#~ (TTL) | table |
 * | get / list users                   | pk = USERS, sk = USER#<id, 10 digits> / …          | table |
 * | is an e-mail taken (guard)         | pk = USER_EMAILS, sk = USER_EMAIL#<lower-case e-mail> | table |
 * | is a username taken (guard)        | pk = USER_USERNAMES, sk = USERNAME#<lower-case name> | table |
 * | the user a single sign-on identity is linked to (guard) | pk = USER_SSO_IDENTITIES, sk = SSO_IDENTITY#<sha256([iss, sub])> | table |
 * | get / list groups (with members)   | pk = GROUPS, sk = GROUP#<id, 10 digits> / …        | table |
 * | is a group name taken (guard)      | pk = GROUP_NAMES, sk = GROUP_NAME#<name>           | table |
 * | has any group changed (revision)   | pk = GROUPS_REVISION, sk = REVISION                | table |
 * | get / list public signup tokens    | pk = SIGNUP_TOKENS, sk = SIGNUP_TOKEN#<secret> / … | table |
 * | a user's password hash             | pk = USER_PASSWORDS, sk = USER_PASSWORD#<id, 10 digits> | table |
 * | a session by its cookie            | pk = SESSIONS#<user id>, sk = SESSION#<sha256(secret)> (TTL) | table |
 * | a single sign-on session's ID token | pk = SESSIONS#<user id>, sk = SESSION#<sha256(secret)>#ID_TOKEN (TTL) | table |
 * | every session of a user (logout)   | pk = SESSIONS#<user id>, begins_with(sk, SESSION#) | table |
 * | a password reset token             | pk = RESET_TOKENS, sk = RESET_TOKEN#<sha256(secret)> (TTL) | table |
 * | a user's live reset link           | pk = RESET_TOKENS, sk = RESET_LINK_OF#<user id, 10 digits> (TTL) | table |
 * | failed logins of a name from an address | pk = LOGIN_FAILURES#<sha256(login name)>, sk = ADDRESS#<address or /64> (TTL) | table |
 * | tokens an address asked Edge's validate about in one minute | pk = EDGE_VALIDATIONS#<address or /64>, sk = MINUTE#<epoch minute> (TTL) | table |
 * | read the OIDC settings             | pk = SETTINGS, sk = SETTING#oidc                   | table |
 * | whether password login is off      | pk = SETTINGS, sk = SETTING#simple-auth            | table |
 * | read the Frontend API's CORS origins | pk = SETTINGS, sk = SETTING#frontend             | table |
 * | whether maintenance mode is on     | pk = SETTINGS, sk = SETTING#maintenance            | table |
 * | the feature types' expected lifetimes | pk = SETTINGS, sk = SETTING#feature-types       | table |
 * | one user's personal access tokens  | pk = USER_PATS#<user id, 10 digits>, sk = PATS      | table |
 * | a personal access token by secret  | pk = PAT#<sha256(secret)>, sk = PAT                | table |
 * | one user's seen splashes and feedback | pk = USER_UI#<user id, 10 digits>, sk = SPLASH / FEEDBACK | table |
 * | change events of a month, by time  | pk = EVENTS#<yyyy-mm>, sk between <from> and <to>  | table |
 * | one feature's change events, by time | gsi1pk = FEATURE_EVENTS#<name>, gsi1sk between <from> and <to> | eventsByFeature |
 * | how many events of a month were committed (ADR 26) | pk = EVENT_COUNTS#<yyyy-mm> (every shard, SHARD#<0..31>, one Query) | table |
 * | one user's favourite flags and projects | pk = FAVOURITES#<user id, 10 digits>, sk = FAVOURITE#FEATURE#<name> / FAVOURITE#PROJECT#<id> | table |
 * | daily insight snapshots, by date   | pk = SNAPSHOTS, sk = SNAPSHOT#<yyyy-mm-dd> / …     | table |
 * | the stored SDK snapshot's head     | pk = SDK_SNAPSHOT, sk = HEAD                       | table |
 * | one page of a stored SDK snapshot  | pk = SDK_SNAPSHOT#<id>#<page>, sk = PAGE (BatchGetItem) | table |
 * | get / list integrations (addons)   | pk = INTEGRATIONS, sk = INTEGRATION#<id, 10 digits> / … | table |
 * | an integration's newest deliveries | pk = INTEGRATION_DELIVERIES#<id, 10 digits>, sk = DELIVERY#<id, 20 digits>, newest first (TTL) | table |
 *
 * Features share one partition because the SDK payload reads them all at once (only when the
 * revision moved) and a feature name is unique across projects, archived ones included. Each
 * feature also has a copy in its project's partition (ADR 17), written in every transaction that
 * writes the feature, so one project's features are read without reading any other project's.
 */

export const KEY = { partition: 'pk', sort: 'sk' } as const;

/**
 * The data migrations this version brings, by name. Each name is in the bootstrap resource's
 * properties (infra/constructs/bootstrap-admin-token.ts), so the first deployment of a version
 * that adds one sends the resource an Update and the bootstrap runs again on the existing table.
 * - `project-copies` (ADR 17): lib/features/dynamo-project-copies.ts, which records on the table
 *   when it has finished (`keys.migration`).
 * - `groups-revision` (ADR 27): the bootstrap's first start step creates the groups' revision item
 *   on a table from before it (lib/instance/dynamo-seed-store.ts); nothing to record, the item is it.
 */
export const DATA_MIGRATIONS = { projectCopies: 'project-copies', groupsRevision: 'groups-revision' } as const;

/**
 * The attribute DynamoDB's time to live reads (epoch seconds): items that carry it are deleted
 * some time after it passes. Items that must stay never carry it.
 */
export const TTL_ATTRIBUTE = 'expiresAt';

/**
 * How many counters share a month's count of written events (ADR 26): concurrent writers rarely
 * pick the same one (as many as the revision's shards), and a Query still reads them all for one
 * read unit (some 70 bytes each).
 */
export const EVENT_COUNT_SHARDS = 32;
/** Set on an event item that its transaction counted (ADR 26); events written before counting began lack it. */
export const EVENT_COUNTED_ATTRIBUTE = 'counted';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export interface TableDefinition {
  partitionKey: string;
  sortKey: string;
  /** Global secondary indexes, each named for the access pattern it serves. */
  indexes: readonly IndexDefinition[];
  /** The attribute DynamoDB's time to live reads. */
  timeToLiveAttribute: string;
}

/**
 * The global secondary indexes, named for the pattern they serve. `eventsByFeature` is sparse:
 * only a change event about a feature carries its keys (lib/events/dynamo-store.ts), written with
 * the event in the change's transaction, so a flag's event log reads that flag's events alone
 * (the event items stay keyed by month for reads by time). Events recorded before the index
 * existed do not carry its keys and are found by time only.
 */
export const INDEXES = {
  eventsByFeature: { name: 'eventsByFeature', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
} as const satisfies Record<string, IndexDefinition>;

export const tableDefinition: TableDefinition = {
  partitionKey: KEY.partition,
  sortKey: KEY.sort,
  indexes: Object.values(INDEXES),
  timeToLiveAttribute: TTL_ATTRIBUTE,
};

export interface ItemKey {
  pk: string;
  sk: string;
}

export interface CollectionPrefix {
  pk: string;
  skPrefix: string;
}

/**
 * Partitions whose writes are the service's own bookkeeping, never part of what a client asked
 * to change: an id taken from a counter, the instance's identity, a daily insight snapshot
 * written while reading. A request that failed after writing only these changed nothing.
 */
export const BOOKKEEPING_PARTITIONS: ReadonlySet<string> = new Set(['COUNTERS', 'INSTANCE', 'SNAPSHOTS']);

export const keys = {
  strategyType: (name: string): ItemKey => ({ pk: 'STRATEGY_TYPES', sk: `STRATEGY_TYPE#${name}` }),
  strategyTypes: (): CollectionPrefix => ({ pk: 'STRATEGY_TYPES', skPrefix: 'STRATEGY_TYPE#' }),

  apiToken: (secretHash: string): ItemKey => ({ pk: 'API_TOKENS', sk: `API_TOKEN#${secretHash}` }),
  /** A token's public id is a prefix of its hash, so it can be found without the secret. */
  apiTokenById: (tokenId: string): CollectionPrefix => ({ pk: 'API_TOKENS', skPrefix: `API_TOKEN#${tokenId}` }),
  apiTokens: (): CollectionPrefix => ({ pk: 'API_TOKENS', skPrefix: 'API_TOKEN#' }),

  /**
   * The revision's shards; a write moves one, a read sums them all (lib/store/revision-store.ts).
   * The item at sk REVISION, the one counter before ADR 13, is read as one more shard.
   */
  revisionShard: (shard: number): ItemKey => ({ pk: 'REVISION', sk: `SHARD#${String(shard).padStart(2, '0')}` }),
  revisionPartition: (): string => 'REVISION',
  /** The change log of one revision shard (ADR 16): the entry at each of its revisions, zero-padded to sort. */
  revisionChange: (shard: string, revision: number): ItemKey => ({
    pk: `REVISION_CHANGES#${shard}`,
    sk: String(revision).padStart(12, '0'),
  }),
  revisionChanges: (shard: string): string => `REVISION_CHANGES#${shard}`,
  instance: (): ItemKey => ({ pk: 'INSTANCE', sk: 'INSTANCE' }),
  seed: (): ItemKey => ({ pk: 'SEED', sk: 'SEED' }),
  counter: (kind: string): ItemKey => ({ pk: 'COUNTERS', sk: `COUNTER#${kind}` }),

  feature: (name: string): ItemKey => ({ pk: 'FEATURES', sk: `FEATURE#${name}` }),
  features: (): CollectionPrefix => ({ pk: 'FEATURES', skPrefix: 'FEATURE#' }),
  /** A feature's copy in its project's partition (ADR 17); `feature` above stays the one read by name. */
  projectFeature: (project: string, name: string): ItemKey => ({ pk: `PROJECT_FEATURES#${project}`, sk: `FEATURE#${name}` }),
  projectFeatures: (project: string): CollectionPrefix => ({ pk: `PROJECT_FEATURES#${project}`, skPrefix: 'FEATURE#' }),
  /**
   * The lifecycle stages SDK metrics last wrote on a flag of `project`, with the flag's version
   * after that write (lib/features/dynamo-metrics-stages.ts): those writes move no revision, so
   * readers of the admin read model find them here, one small Query of the project's partition.
   */
  metricsStage: (project: string, name: string): ItemKey => ({ pk: `METRICS_STAGES#${project}`, sk: `FEATURE#${name}` }),
  metricsStagesOf: (project: string): string => `METRICS_STAGES#${project}`,
  /** Present once every flag of the project whose stages metrics moved has its item above (tables from before those items). */
  metricsStagesComplete: (project: string): ItemKey => ({ pk: `METRICS_STAGES#${project}`, sk: 'COMPLETE' }),
  /** IAM `dynamodb:LeadingKeys` pattern of every project's metrics-stage items. */
  metricsStagePartitions: (): string => 'METRICS_STAGES#*',
  /** One item per data migration that has finished on this table (e.g. lib/features/dynamo-project-copies.ts). */
  migration: (name: string): ItemKey => ({ pk: 'MIGRATIONS', sk: `MIGRATION#${name}` }),

  project: (id: string): ItemKey => ({ pk: 'PROJECTS', sk: `PROJECT#${id}` }),
  projects: (): CollectionPrefix => ({ pk: 'PROJECTS', skPrefix: 'PROJECT#' }),
  /**
   * The shards of a project's count of active features (ADR 14; lib/features/dynamo-feature-counts.ts).
   * A project id never holds `#`, so the closing `#` keeps project `a` from matching `a-b`.
   */
  projectFeatureCount: (id: string, shard: number): ItemKey => ({
    pk: 'PROJECTS',
    sk: `FEATURE_COUNT#${id}#${String(shard).padStart(2, '0')}`,
  }),
  projectFeatureCounts: (id: string): CollectionPrefix => ({ pk: 'PROJECTS', skPrefix: `FEATURE_COUNT#${id}#` }),
  allProjectFeatureCounts: (): CollectionPrefix => ({ pk: 'PROJECTS', skPrefix: 'FEATURE_COUNT#' }),

  environment: (name: string): ItemKey => ({ pk: 'ENVIRONMENTS', sk: `ENVIRONMENT#${name}` }),
  environments: (): CollectionPrefix => ({ pk: 'ENVIRONMENTS', skPrefix: 'ENVIRONMENT#' }),

  /** Zero-padded so the collection lists in id order. */
  segment: (id: number): ItemKey => ({ pk: 'SEGMENTS', sk: `SEGMENT#${String(id).padStart(10, '0')}` }),
  segments: (): CollectionPrefix => ({ pk: 'SEGMENTS', skPrefix: 'SEGMENT#' }),
  /** One item per segment name, written in the segment's transactions so a name is taken once. */
  segmentName: (name: string): ItemKey => ({ pk: 'SEGMENT_NAMES', sk: `SEGMENT_NAME#${name}` }),

  contextField: (name: string): ItemKey => ({ pk: 'CONTEXT_FIELDS', sk: `CONTEXT_FIELD#${name}` }),
  contextFields: (): CollectionPrefix => ({ pk: 'CONTEXT_FIELDS', skPrefix: 'CONTEXT_FIELD#' }),

  tagType: (name: string): ItemKey => ({ pk: 'TAG_TYPES', sk: `TAG_TYPE#${name}` }),
  tagTypes: (): CollectionPrefix => ({ pk: 'TAG_TYPES', skPrefix: 'TAG_TYPE#' }),
  /** A tag type is URL-friendly (no `#`), so the type before the value is unambiguous. */
  tag: (type: string, value: string): ItemKey => ({ pk: 'TAGS', sk: `TAG#${type}#${value}` }),
  tags: (type?: string): CollectionPrefix => ({ pk: 'TAGS', skPrefix: type === undefined ? 'TAG#' : `TAG#${type}#` }),

  lastSeen: (feature: string, environment: string): ItemKey => ({
    pk: 'LAST_SEEN',
    sk: `LAST_SEEN#${feature}#${environment}`,
  }),
  lastSeenAll: (): CollectionPrefix => ({ pk: 'LAST_SEEN', skPrefix: 'LAST_SEEN#' }),
  /** The closing `#` keeps feature `a` from matching the items of feature `a-b`. */
  lastSeenOfFeature: (feature: string): CollectionPrefix => ({ pk: 'LAST_SEEN', skPrefix: `LAST_SEEN#${feature}#` }),

  /**
   * `hour` is `yyyy-mm-ddThh`. One partition per day keeps a day's trend one Query (and spreads
   * the store stage's writes over days, as before); the feature first in the sort key makes one
   * feature's hours of a day one range of it, so its last 48 hours are a Query per day (2 or 3).
   */
  hourlyMetrics: (hour: string, feature: string, environment: string): ItemKey => ({
    pk: `METRICS#${hour.slice(0, 10)}`,
    sk: `FEATURE#${feature}#${hour.slice(11, 13)}#${environment}`,
  }),
  dailyMetrics: (day: string): CollectionPrefix => ({ pk: `METRICS#${day}`, skPrefix: '' }),
  /**
   * A feature's counters of the hours `fromHh` to `toHh` (two digits each) of one day, as an
   * inclusive sort-key range. A feature name is URL-friendly (no `#`), so `FEATURE#<feature>#`
   * holds exactly its counters, and `$` sorts right after `#`, closing the last hour's environments.
   */
  featureHoursOfDay: (day: string, feature: string, fromHh: string, toHh: string) => ({
    pk: `METRICS#${day}`,
    from: `FEATURE#${feature}#${fromHh}#`,
    to: `FEATURE#${feature}#${toHh}$`,
  }),
  /**
   * The counters' keys before they put the feature first (`<hh>#<feature>#<env>`), one feature's
   * of one hour: read only for the hours the key-format record says they may hold (they expire
   * 48 hours after their hour).
   */
  hourFirstFeatureMetrics: (hour: string, feature: string): CollectionPrefix => ({
    pk: `METRICS#${hour.slice(0, 10)}`,
    skPrefix: `${hour.slice(11, 13)}#${feature}#`,
  }),
  /** Inside the metrics partitions' `METRICS#` prefix, so the store stage's write grant covers it. */
  hourlyMetricsKeyFormat: (): ItemKey => ({ pk: 'METRICS#KEY_FORMAT', sk: 'FEATURE_FIRST' }),

  /** One partition per month: a 30-day window is at most two Queries, and no partition grows forever. */
  event: (createdAt: string, id: string): ItemKey => ({ pk: `EVENTS#${createdAt.slice(0, 7)}`, sk: `${createdAt}#${id}` }),
  eventsOfMonth: (month: string): CollectionPrefix => ({ pk: `EVENTS#${month}`, skPrefix: '' }),
  /** The `eventsByFeature` keys an event about a feature carries besides its own. */
  featureEvent: (featureName: string, createdAt: string, id: string) => ({ gsi1pk: `FEATURE_EVENTS#${featureName}`, gsi1sk: `${createdAt}#${id}` }),
  featureEvents: (featureName: string): string => `FEATURE_EVENTS#${featureName}`,
  /**
   * One of a month's EVENT_COUNT_SHARDS counters of the events committed with a count (ADR 26),
   * moved in the transaction that writes them. Outside `EVENTS#`, so the integrations' stream
   * filter and every reader of a month's events never see them.
   */
  eventCountShard: (month: string, shard: number): ItemKey => ({ pk: `EVENT_COUNTS#${month}`, sk: `SHARD#${shard}` }),
  /** Every shard of a month's count, one partition: a Query reads them all for one read unit. */
  eventCountShards: (month: string): CollectionPrefix => ({ pk: `EVENT_COUNTS#${month}`, skPrefix: 'SHARD#' }),

  /** Zero-padded so the collection lists in id order. */
  user: (id: number): ItemKey => ({ pk: 'USERS', sk: `USER#${String(id).padStart(10, '0')}` }),
  users: (): CollectionPrefix => ({ pk: 'USERS', skPrefix: 'USER#' }),
  /** Guard items, written in the user's transactions so an e-mail or username is taken once. */
  userEmail: (email: string): ItemKey => ({ pk: 'USER_EMAILS', sk: `USER_EMAIL#${email}` }),
  userUsername: (username: string): ItemKey => ({ pk: 'USER_USERNAMES', sk: `USERNAME#${username}` }),
  /** One per linked SSO identity, written in the user's transactions: an identity is linked to one user, found by one GetItem. */
  userSsoIdentity: (identityHash: string): ItemKey => ({ pk: 'USER_SSO_IDENTITIES', sk: `SSO_IDENTITY#${identityHash}` }),

  /** A group item holds its memberships too, so a group and its members change in one write. */
  group: (id: number): ItemKey => ({ pk: 'GROUPS', sk: `GROUP#${String(id).padStart(10, '0')}` }),
  groups: (): CollectionPrefix => ({ pk: 'GROUPS', skPrefix: 'GROUP#' }),
  groupName: (name: string): ItemKey => ({ pk: 'GROUP_NAMES', sk: `GROUP_NAME#${name}` }),
  /**
   * Moved in every transaction that writes a group item (lib/store/groups-revision.ts), and read
   * with each session: a container keeps the root roles groups give per revision. A partition of
   * its own, so a function may be granted it without the groups themselves.
   */
  groupsRevision: (): ItemKey => ({ pk: 'GROUPS_REVISION', sk: 'REVISION' }),

  /** In an item of its own, so no read of a user carries it. */
  userPassword: (id: number): ItemKey => ({ pk: 'USER_PASSWORDS', sk: `USER_PASSWORD#${String(id).padStart(10, '0')}` }),
  /** A user's sessions share a partition: logging out everywhere is one Query. The cookie names the user id. */
  session: (userId: number, secretHash: string): ItemKey => ({ pk: `SESSIONS#${userId}`, sk: `SESSION#${secretHash}` }),
  /** Beside its session, so ending every session of the user (one Query on SESSION#) ends it too. */
  sessionIdToken: (userId: number, secretHash: string): ItemKey => ({ pk: `SESSIONS#${userId}`, sk: `SESSION#${secretHash}#ID_TOKEN` }),
  sessionsOf: (userId: number): CollectionPrefix => ({ pk: `SESSIONS#${userId}`, skPrefix: 'SESSION#' }),
  resetToken: (secretHash: string): ItemKey => ({ pk: 'RESET_TOKENS', sk: `RESET_TOKEN#${secretHash}` }),
  /** Names the user's one live reset link: a newer link replaces it, so older ones end. */
  resetLinkOf: (userId: number): ItemKey => ({ pk: 'RESET_TOKENS', sk: `RESET_LINK_OF#${String(userId).padStart(10, '0')}` }),
  /** Failed password logins of one login name (its sha256) from one client address. */
  loginFailures: (loginKey: string, address: string): ItemKey => ({ pk: `LOGIN_FAILURES#${loginKey}`, sk: `ADDRESS#${address}` }),
  /**
   * How many tokens one client address asked `POST /edge/validate` about in one minute. A
   * partition per address, so one caller's counting never contends with another's.
   */
  edgeValidations: (address: string, minute: number): ItemKey => ({ pk: `EDGE_VALIDATIONS#${address}`, sk: `MINUTE#${minute}` }),
  /** IAM `dynamodb:LeadingKeys` pattern of every address's counts. */
  edgeValidationPartitions: (): string => 'EDGE_VALIDATIONS#*',

  signupToken: (secret: string): ItemKey => ({ pk: 'SIGNUP_TOKENS', sk: `SIGNUP_TOKEN#${secret}` }),
  signupTokens: (): CollectionPrefix => ({ pk: 'SIGNUP_TOKENS', skPrefix: 'SIGNUP_TOKEN#' }),

  oidcSettings: (): ItemKey => ({ pk: 'SETTINGS', sk: 'SETTING#oidc' }),
  passwordLoginSettings: (): ItemKey => ({ pk: 'SETTINGS', sk: 'SETTING#simple-auth' }),
  frontendSettings: (): ItemKey => ({ pk: 'SETTINGS', sk: 'SETTING#frontend' }),
  maintenanceSettings: (): ItemKey => ({ pk: 'SETTINGS', sk: 'SETTING#maintenance' }),
  /** The lifetimes an admin set for feature types (the rest keep Unleash's defaults). */
  featureTypeSettings: (): ItemKey => ({ pk: 'SETTINGS', sk: 'SETTING#feature-types' }),

  /**
   * A user's personal access tokens in one item (at most ten, Unleash's limit): a create checks the
   * count and the description in the same conditional write. Each token is also found by the hash
   * of its secret, in a partition of its own, so authenticating with one is one GetItem.
   */
  personalTokensOf: (userId: number): ItemKey => ({ pk: `USER_PATS#${String(userId).padStart(10, '0')}`, sk: 'PATS' }),
  personalTokenBySecret: (secretHash: string): ItemKey => ({ pk: `PAT#${secretHash}`, sk: 'PAT' }),
  /** Every personal access token's own partition, as an IAM `dynamodb:LeadingKeys` pattern (its `seenAt`). */
  personalTokenPartitions: (): string => 'PAT#*',
  /** What the admin UI remembers for a person: the splash screens they have seen and their feedback answers, one item each. */
  userSplashes: (userId: number): ItemKey => ({ pk: `USER_UI#${String(userId).padStart(10, '0')}`, sk: 'SPLASH' }),
  userFeedback: (userId: number): ItemKey => ({ pk: `USER_UI#${String(userId).padStart(10, '0')}`, sk: 'FEEDBACK' }),
  userUiSettings: (userId: number): CollectionPrefix => ({ pk: `USER_UI#${String(userId).padStart(10, '0')}`, skPrefix: '' }),

  /**
   * A user's favourites share a partition: everything the star marks for one person is one Query,
   * and no two people's stars touch the same partition. A flag or project id never holds `#`.
   */
  favouriteFeature: (userId: number, featureName: string): ItemKey => ({ pk: `FAVOURITES#${String(userId).padStart(10, '0')}`, sk: `FAVOURITE#FEATURE#${featureName}` }),
  favouriteProject: (userId: number, projectId: string): ItemKey => ({ pk: `FAVOURITES#${String(userId).padStart(10, '0')}`, sk: `FAVOURITE#PROJECT#${projectId}` }),
  favouritesOf: (userId: number): CollectionPrefix => ({ pk: `FAVOURITES#${String(userId).padStart(10, '0')}`, skPrefix: 'FAVOURITE#' }),

  snapshot: (date: string): ItemKey => ({ pk: 'SNAPSHOTS', sk: `SNAPSHOT#${date}` }),
  snapshots: (): CollectionPrefix => ({ pk: 'SNAPSHOTS', skPrefix: 'SNAPSHOT#' }),
  /** The stored SDK snapshot (ADR 20): its head names the pages; each page has a partition of its own, so writing one spreads. */
  sdkSnapshotHead: (): ItemKey => ({ pk: 'SDK_SNAPSHOT', sk: 'HEAD' }),
  sdkSnapshotPage: (id: string, page: number): ItemKey => ({ pk: `SDK_SNAPSHOT#${id}#${page}`, sk: 'PAGE' }),
  /** IAM `dynamodb:LeadingKeys` pattern of the head and every page. */
  sdkSnapshotPartitions: (): string => 'SDK_SNAPSHOT*',

  /** Zero-padded so the collection lists in id order. */
  integration: (id: number): ItemKey => ({ pk: 'INTEGRATIONS', sk: `INTEGRATION#${String(id).padStart(10, '0')}` }),
  integrations: (): CollectionPrefix => ({ pk: 'INTEGRATIONS', skPrefix: 'INTEGRATION#' }),
  /**
   * One partition per integration, so one busy integration's log never throttles another's;
   * the delivery id grows with time, so the newest are the first of a descending Query.
   */
  integrationDelivery: (integrationId: number, deliveryId: string): ItemKey => ({
    pk: `INTEGRATION_DELIVERIES#${String(integrationId).padStart(10, '0')}`,
    sk: `DELIVERY#${deliveryId.padStart(20, '0')}`,
  }),
  integrationDeliveries: (integrationId: number): CollectionPrefix => ({
    pk: `INTEGRATION_DELIVERIES#${String(integrationId).padStart(10, '0')}`,
    skPrefix: 'DELIVERY#',
  }),
  /** IAM `dynamodb:LeadingKeys` pattern of every integration's log. */
  integrationDeliveryPartitions: (): string => 'INTEGRATION_DELIVERIES#*',
  /** IAM `dynamodb:LeadingKeys` pattern of every month's change events. */
  eventPartitions: (): string => 'EVENTS#*',
  /** IAM `dynamodb:LeadingKeys` pattern of the events' counters: whoever writes events writes these too. */
  eventCountPartitions: (): string => 'EVENT_COUNTS#*',

  /**
   * One item per unknown name, its reports (application and environment → when last seen) in a
   * map: the admin UI's list is one Query of a partition its cap bounds. The name is the key's
   * last segment, so whatever it holds (an unknown name need not be a valid flag name) it is unambiguous.
   */
  unknownFlag: (name: string): ItemKey => ({ pk: 'UNKNOWN_FLAGS', sk: `UNKNOWN_FLAG#${name}` }),
  unknownFlags: (): CollectionPrefix => ({ pk: 'UNKNOWN_FLAGS', skPrefix: 'UNKNOWN_FLAG#' }),

  /** `scope` is a fixed-length digest of the token scope, so the appName before it is unambiguous. */
  clientApp: (appName: string, scope: string): ItemKey => ({ pk: 'CLIENT_APPS', sk: `CLIENT_APP#${appName}#${scope}` }),
  clientApps: (): CollectionPrefix => ({ pk: 'CLIENT_APPS', skPrefix: 'CLIENT_APP#' }),
  /**
   * How many of a scope's registrations expire on one UTC day (`yyyy-mm-dd`): the scope's live
   * count is the sum from today on, one small Query. In the registrations' partition, so the SDK
   * path writes no other; `CLIENT_APP_COUNT#` never begins with `CLIENT_APP#`.
   */
  clientAppCount: (scope: string, day: string): ItemKey => ({ pk: 'CLIENT_APPS', sk: `CLIENT_APP_COUNT#${scope}#${day}` }),
  clientAppCounts: (scope: string): CollectionPrefix => ({ pk: 'CLIENT_APPS', skPrefix: `CLIENT_APP_COUNT#${scope}#` }),
};
