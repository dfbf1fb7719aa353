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
 * | read the SDK revision              | pk = REVISION, sk = REVISION                       | table |
 * | read the instance identity         | pk = INSTANCE, sk = INSTANCE                       | table |
 */

export const KEY = { partition: 'pk', sort: 'sk' } as const;

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
}

export const tableDefinition: TableDefinition = {
  partitionKey: KEY.partition,
  sortKey: KEY.sort,
  indexes: [],
};

export interface ItemKey {
  pk: string;
  sk: string;
}

export interface CollectionPrefix {
  pk: string;
  skPrefix: string;
}

export const keys = {
  strategyType: (name: string): ItemKey => ({ pk: 'STRATEGY_TYPES', sk: `STRATEGY_TYPE#${name}` }),
  strategyTypes: (): CollectionPrefix => ({ pk: 'STRATEGY_TYPES', skPrefix: 'STRATEGY_TYPE#' }),

  apiToken: (secretHash: string): ItemKey => ({ pk: 'API_TOKENS', sk: `API_TOKEN#${secretHash}` }),
  /** A token's public id is a prefix of its hash, so it can be found without the secret. */
  apiTokenById: (tokenId: string): CollectionPrefix => ({ pk: 'API_TOKENS', skPrefix: `API_TOKEN#${tokenId}` }),
  apiTokens: (): CollectionPrefix => ({ pk: 'API_TOKENS', skPrefix: 'API_TOKEN#' }),

  revision: (): ItemKey => ({ pk: 'REVISION', sk: 'REVISION' }),
  instance: (): ItemKey => ({ pk: 'INSTANCE', sk: 'INSTANCE' }),
};
