import { loadConfig } from '../config.js';
import type { SessionAuthenticator } from '../http/authorize.js';
import type { ClientAddress } from '../http/client-address.js';
import type { MaintenanceGate } from '../http/maintenance.js';
import type { Operation } from '../http/operation.js';
import { SDK_GROUPS, type Group, type RouteSpec } from '../http/route.js';
import { buildRouter, lazyHandler, type LambdaHandler } from '../http/router.js';
import type { Slice } from '../slice.js';
import { createComposition, type Composition } from './composition.js';
import { tokenAuthenticator } from './edge.js';

export type { LambdaHandler } from '../http/router.js';

/** A group's slices, by name, composed on a composition: what `functions/<group>/handler.ts` exports as `compose`. */
export type GroupComposer = (composition: Composition) => Record<string, Slice>;

/**
 * What the admin groups' edge knows of a caller besides the token: the person behind a session
 * cookie or a personal access token, the viewer's address behind the admin UI's distribution, and
 * whether maintenance mode refuses changes. The SDK and Frontend APIs
 * take tokens only and read API Gateway's address. A builder the definition names rather than
 * an import here, so the SDK functions' bundles hold none of it (lib/composition/session-edge.ts).
 */
export type AdminEdge = (composition: Composition) => { sessions: SessionAuthenticator; clientAddress: ClientAddress; maintenance?: MaintenanceGate };

/** What a function serves: its group, its slices, and for the admin groups the admin edge. */
export interface FunctionDefinition {
  group: Group;
  compose: GroupComposer;
  admin?: AdminEdge | undefined;
  /** Wraps the router (the Frontend API's CORS answers). */
  around?: ((handler: LambdaHandler, composition: Composition) => LambdaHandler) | undefined;
}

/**
 * A group's Lambda entry point: configuration is read and the group's slices are composed on the
 * first invocation, not at import time (INIT is billed and slow).
 */
export function functionHandler(definition: FunctionDefinition): LambdaHandler {
  return lazyHandler(() => groupHandlerOf(definition, createComposition(loadConfig(process.env))));
}

/** One group's router over its slices' rows, on the composition's shared edge (tokens, sessions, CORS origins). */
export function groupHandlerOf({ group, compose, admin, around }: FunctionDefinition, c: Composition): LambdaHandler {
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
  if (sdk === (admin !== undefined)) throw new Error(`The ${group} function ${sdk ? 'takes tokens only' : 'serves the admin API and needs the admin edge'}`);
  const edge = admin ? c.once(admin) : undefined;
  const handler = buildRouter(rows, operations, c.once(tokenAuthenticator), {
    // The SDK API writes only usage: its polls skip the deadline's async context.
    keepsDeadline: !sdk,
    sessions: edge?.sessions,
    clientAddress: edge?.clientAddress,
    maintenance: edge?.maintenance,
  });
  return around ? around(handler, c) : handler;
}
