import { createHash } from 'node:crypto';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import { ALL, type Caller } from '../tokens/model.js';

export interface TagFilter {
  type: string;
  value: string;
}

/** What an SDK asked for: the validated query string and the spec version it speaks. */
export interface ClientRequest {
  projects?: string[] | undefined;
  namePrefix?: string | undefined;
  tags?: TagFilter[] | undefined;
  environment?: string | undefined;
  /** The `Unleash-Client-Spec` header. */
  clientSpec?: string | undefined;
}

/**
 * The resolved query: everything the payload depends on besides the data. Its whole canonical
 * text (`scopeKeyOf`) names the cache entry, so two callers share a payload only when their
 * resolved queries are equal; its short hash only decorates the ETag.
 */
export interface ClientQuery {
  environment: string;
  /** Undefined means every project. */
  projects?: string[];
  namePrefix?: string;
  tags?: TagFilter[];
  inlineSegmentConstraints: boolean;
}

/** The first client-specification version that reads segments as a separate list. */
const SEGMENT_LIST_SPEC: readonly [number, number, number] = [4, 2, 0];

/**
 * Unleash's scope rules: the stored token record decides, never the query. SDK tokens are
 * bound to their environment and, when scoped, to their projects (which override `?project`);
 * admin tokens choose with `?environment` (development when absent) and `?project`.
 */
export function resolveQuery(caller: Caller, request: ClientRequest): ClientQuery {
  const admin = caller.type === 'admin';
  const environment = admin ? request.environment || DEFAULT_SDK_ENVIRONMENT : caller.environment;
  const tokenProjects = caller.projects.includes(ALL) ? undefined : caller.projects;
  const projects = tokenProjects ?? (request.projects?.length ? request.projects : undefined);
  const tags = request.tags?.length ? dedupeTags(request.tags) : undefined;
  return {
    environment,
    ...(projects ? { projects: [...new Set(projects)].sort() } : {}),
    ...(request.namePrefix ? { namePrefix: request.namePrefix } : {}),
    ...(tags ? { tags } : {}),
    inlineSegmentConstraints: !speaksSegmentList(request.clientSpec),
  };
}

/** A resolved query with its scope key (`scopeKeyOf`). */
export interface ResolvedScope {
  readonly query: ClientQuery;
  readonly key: string;
}

/**
 * `resolveQuery` and `scopeKeyOf` at once. Most polls carry no filter in their query string:
 * their scope depends only on the token's record and the spec header, so it is kept per caller
 * (the authenticator hands out one frozen caller per token lookup) and per header text, frozen,
 * and a poll builds no query, key or version parse. Any filter, or a caller that is not frozen,
 * is resolved afresh.
 */
export function resolvedScopeOf(caller: Caller, request: ClientRequest): ResolvedScope {
  const unfiltered = request.projects === undefined && request.namePrefix === undefined && request.tags === undefined && request.environment === undefined;
  if (!unfiltered || !Object.isFrozen(caller) || !Object.isFrozen(caller.projects)) return freshScope(caller, request);
  let byHeader = unfilteredScopes.get(caller);
  if (byHeader === undefined) unfilteredScopes.set(caller, (byHeader = new Map()));
  const header = request.clientSpec ?? '';
  let scope = byHeader.get(header);
  if (scope === undefined) {
    // The header is the caller's to choose: a flood of different ones only empties this memo.
    if (byHeader.size >= SPEC_HEADERS_PER_CALLER) byHeader.clear();
    const { query, key } = freshScope(caller, request);
    scope = Object.freeze({ query: Object.freeze({ ...query, ...(query.projects ? { projects: Object.freeze(query.projects) as string[] } : {}) }), key });
    byHeader.set(header, scope);
  }
  return scope;
}

function freshScope(caller: Caller, request: ClientRequest): ResolvedScope {
  const query = resolveQuery(caller, request);
  return { query, key: scopeKeyOf(query) };
}

/** Unfiltered scopes by caller, then by spec header text; a caller dropped by the token cache takes its scopes with it. */
const unfilteredScopes = new WeakMap<Caller, Map<string, ResolvedScope>>();
const SPEC_HEADERS_PER_CALLER = 16;

/**
 * What selects a cached payload: the resolved query's whole canonical text. Never a digest cut
 * short: part of the query is the caller's to choose (`namePrefix`, `project`), so a truncated
 * hash could be searched offline for a collision with another token's scope (DESIGN §3).
 */
export function scopeKeyOf(query: ClientQuery): string {
  return JSON.stringify(queryEcho(query));
}

/**
 * A short hex hash of the resolved query (Unleash's ETag prefix). Cosmetic: it names no cache
 * entry, and an SDK only ever compares it with the ETag of its own scope.
 */
export function queryHash(query: ClientQuery): string {
  return shortHashOf(scopeKeyOf(query));
}

/** The short hash of a scope key already built (the poll path builds the key once). */
export function shortHashOf(text: string): string {
  let hash = knownHashes.get(text);
  if (hash === undefined) {
    hash = createHash('sha256').update(text).digest('hex').slice(0, 8);
    // Every poll of a scope asks again; a few hundred scopes is plenty, and a flood of odd
    // query strings only empties the memo.
    if (knownHashes.size >= KNOWN_HASHES) knownHashes.clear();
    knownHashes.set(text, hash);
  }
  return hash;
}

const knownHashes = new Map<string, string>();
const KNOWN_HASHES = 500;

/** The payload's `query`: the resolved query in Unleash's wire form (tags as `[type, value]`). */
export function queryEcho(query: ClientQuery) {
  return {
    environment: query.environment,
    inlineSegmentConstraints: query.inlineSegmentConstraints,
    ...(query.projects ? { project: query.projects } : {}),
    ...(query.namePrefix ? { namePrefix: query.namePrefix } : {}),
    ...(query.tags ? { tag: query.tags.map((tag) => [tag.type, tag.value]) } : {}),
  };
}

/** True when the header is a version at or above 4.2.0; anything unreadable means inline. */
export function speaksSegmentList(clientSpec: string | undefined): boolean {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(clientSpec?.trim() ?? '');
  if (!match) return false;
  const version = [Number(match[1]), Number(match[2]), Number(match[3])];
  for (const [index, wanted] of SEGMENT_LIST_SPEC.entries()) {
    const part = version[index] as number;
    if (part !== wanted) return part > wanted;
  }
  return true;
}

function dedupeTags(tags: TagFilter[]): TagFilter[] {
  const byKey = new Map(tags.map((tag) => [`${tag.type}:${tag.value}`, tag]));
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, tag]) => tag);
}
