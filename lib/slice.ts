import type { AppConfig } from './config.js';
import type { OperationsFor } from './http/operation.js';
import type { RouteSpec } from './http/route.js';
import type { StoreContext } from './store/context.js';

/**
 * What a resource folder serves: its route-table rows and their handler functions. A folder's
 * `slice.ts` exports one factory, `(context, ports) → Slice & { its services }`: the operations
 * close over the slice's own services, and `ports.ts` declares what it reads of other resources.
 * A function composes only the slices it serves (functions/<group>/handler.ts).
 */
export interface Slice<Rows extends Record<string, RouteSpec> = Record<string, RouteSpec>> {
  routes: Rows;
  operations: OperationsFor<Rows>;
}

/** What every slice is built on: the parsed configuration, the process's one store connection and its clock. */
export interface SliceContext {
  config: AppConfig;
  store: StoreContext;
  /** A test's clock (sessions past their TTL, the current hour's usage) without waiting; the system clock otherwise. */
  now?: (() => Date) | undefined;
}
