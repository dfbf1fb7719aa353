import type { PathParamNames } from './http/path-parameters.js';
import type { RouteSpec } from './http/route.js';
import type { OperationId } from './route-table.js';

/**
 * A sample request to one route, as a resource's `samples.ts` writes it: only what varies. The
 * method, path, route key, content type, token header and the rest of the API Gateway event
 * come from the route row (local/sample-scenarios.ts), and `npm run events` writes the
 * event to events/<group>/<name>.json. Samples carry placeholders, never real secrets or fixed
 * names: `{{UNIQUE}}` is one value per invocation, `{{ADMIN_TOKEN}}` the local admin token,
 * and ids that setup steps answer (`provides`) are filled in by `npm run invoke`.
 */
interface SampleFields {
  /** The status it must get, run after its setup steps on any store. */
  status: number;
  query?: Record<string, string>;
  /** A JSON body, sent as its JSON text. */
  body?: unknown;
  /** A body sent verbatim, for requests that are deliberately not JSON. */
  text?: string;
  /** Extra or replaced headers (lower case): a wrong content type, an SDK's own headers. */
  headers?: Record<string, string>;
  /** `admin` (the placeholder) unless the route is public; `none` for a refused anonymous call. */
  token?: 'admin' | 'none';
  /** Scenarios (`<group>/<name>`) to run first, each once per invocation (their own setup included). */
  given?: string[];
  /** Placeholders this scenario fills from its response body when it runs as setup. */
  provides?: Record<string, string>;
}

/** A row's path parameters are required, by name, exactly when its path has any. */
type ParamsOf<Path extends string> = [PathParamNames<Path>] extends [never]
  ? { params?: never }
  : { params: Record<PathParamNames<Path>, string> };

/** One sample per operation of `Rows`, typed by that operation's own row. */
type SampleOf<Rows extends Record<string, RouteSpec>> = {
  [Id in keyof Rows & string]: SampleFields & { operation: Id } & ParamsOf<Rows[Id]['path']>;
}[keyof Rows & string];

/** A sample with its route row resolved: what the event builder and the runner read. */
export interface Sample extends SampleFields {
  /** `<group>/<name>`: the file events/<group>/<name>.json and the name `given` uses. */
  key: string;
  operation: OperationId;
  route: RouteSpec;
  params: Record<string, string>;
}

/**
 * One resource's samples, keyed by scenario name (the event file's name). Each names an
 * operation of `rows`, so a sample cannot point at another resource's route, and its group
 * is that row's group.
 */
export function defineSamples<Rows extends Record<string, RouteSpec>>(
  rows: Rows,
  samples: Record<string, SampleOf<Rows>>,
): Sample[] {
  return Object.entries(samples).map(([name, typed]): Sample => {
    const sample = typed as SampleFields & { operation: string; params?: Record<string, string> };
    const route = rows[sample.operation];
    if (!route) throw new Error(`Sample ${name}: no operation ${sample.operation}`);
    // The rows are the route table's own (the sample-events test checks), so the id is one of its ids.
    const operation = sample.operation as OperationId;
    return { ...sample, operation, key: `${route.group}/${name}`, route, params: sample.params ?? {} };
  });
}

/**
 * A placeholder that stands in a JSON body as a number (`"id": {{USER_ID}}`), not as a string:
 * the body's text is not JSON until `npm run invoke` fills it.
 */
export function numericPlaceholder(name: string): string {
  return `{{#${name}}}`;
}

/** Turns a JSON body's numeric placeholders back into bare `{{NAME}}`. */
export function unquoteNumericPlaceholders(json: string): string {
  return json.replace(/"\{\{#([A-Z_]+)\}\}"/g, '{{$1}}');
}
