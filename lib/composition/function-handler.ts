import { loadConfig } from '../config.js';
import { withCors } from '../frontend/cors.js';
import type { SessionAuthenticator } from '../http/authorize.js';
import { clientAddress } from '../http/client-address.js';
import type { Operation } from '../http/operation.js';
import { SDK_GROUPS, type Group, type RouteSpec } from '../http/route.js';
import { buildRouter, lazyHandler, type LambdaHandler } from '../http/router.js';
import { originSecretSource } from '../secrets/origin-secret.js';
import type { Slice } from '../slice.js';
import { createComposition, type Composition } from './composition.js';
import { frontendOrigins, tokenAuthenticator } from './edge.js';

export type { LambdaHandler } from '../http/router.js';

/** A group's slices, by name, composed on a composition: what `functions/<group>/handler.ts` exports as `compose`. */
export type GroupComposer = (composition: Composition) => Record<string, Slice>;

/**
 * The people behind a session cookie, for the admin groups (the SDK and Frontend APIs take tokens
 * only). A builder rather than an import, so a function's bundle holds the session code only
 * through the one place that builds it.
 */
export type SessionEdge = (composition: Composition) => SessionAuthenticator;

/** What a function serves: its group, its slices, and for the admin groups the session edge. */
export interface FunctionDefinition {
  group: Group;
  compose: GroupComposer;
  sessions?: SessionEdge | undefined;
}

/**
 * A group's Lambda entry point: configuration is read and the group's slices are composed on the
 * first invocation, not at import time (INIT is billed and slow).
 */
export function functionHandler(definition: FunctionDefinition): LambdaHandler {
  return lazyHandler(() => groupHandlerOf(definition, createComposition(loadConfig(process.env))));
}

/** One group's router over its slices' rows, on the composition's shared edge (tokens, sessions, CORS origins). */
export function groupHandlerOf({ group, compose, sessions }: FunctionDefinition, c: Composition): LambdaHandler {
  const slices = compose(c);
  const rows: Record<string, RouteSpec> = {};
  const operations: Record<string, Operation<RouteSpec>> = {};
  for (const [name, slice] of Object.entries(slices)) {
    for (const [id, spec] of Object.entries(slice.routes)) {
      if (spec.group !== group) throw new Error(`Slice ${name}: route ${id} belongs to the ${spec.group} function, not ${group}`);
      if (id in rows) throw new Error(`Slice ${name}: operation id ${id} is served twice`);
      rows[id] = spec;
      operations[id] = (slice.operations as Record<string, Operation<RouteSpec>>)[id] as Operation<RouteSpec>;
    }
  }
  const sdk = SDK_GROUPS.has(group);
  if (!sdk && !sessions) throw new Error(`The ${group} function serves the admin API and needs the session edge`);
  const handler = buildRouter(rows, operations, c.once(tokenAuthenticator), {
    keepsDeadline: !sdk,
    // The SDK and Frontend APIs take tokens only: their functions never read a cookie.
    sessions: sdk || !sessions ? undefined : c.once(sessions),
    // Behind CloudFront, the viewer the distribution vouches for with its secret (only the functions given it).
    clientAddress: sdk ? undefined : clientAddress(originSecretSource(c.config)),
  });
  return group === 'frontend' ? withCors(handler, c.once(frontendOrigins)) : handler;
}
