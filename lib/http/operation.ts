import type * as z from 'zod';
import type { PathParams } from './path-parameters.js';
import type { RouteSpec } from './route.js';
import type { Caller } from './caller.js';
import type { JsonSize } from './large-answers.js';

type BodyOf<R extends RouteSpec> = R extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
type QueryOf<R extends RouteSpec> = R extends { query: infer S extends z.ZodType }
  ? z.output<S>
  : Record<string, string | undefined>;
type ResponseOf<R extends RouteSpec> = R extends { response: infer S extends z.ZodType } ? z.input<S> : undefined;

/** What a handler function receives: validated input, and the caller when the route needs a token. */
export interface OperationInput<R extends RouteSpec> {
  /** The path's parameters, each parsed by its rule (lib/http/path-parameters.ts). */
  params: PathParams<R['path']>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  caller: R['access'] extends { kind: 'public' } ? undefined : Caller;
  /** Request headers, names in lower case (the SDK API reads `if-none-match` and `unleash-client-spec`). */
  headers: Record<string, string | undefined>;
  /**
   * The revision read while checking this request's token, when one was: it is at least as
   * fresh as a read the handler would make, so the SDK path answers at it without a second read.
   */
  checkedRevision: number | undefined;
  /** The request's cookies (API Gateway's `cookies`): logout reads the session's. */
  cookies: readonly string[];
  /**
   * The caller's address (login counts, the Frontend API's default `remoteAddress`): API Gateway's
   * source address, or behind the admin UI's distribution the viewer's it vouches for (client-address.ts).
   */
  sourceIp: string | undefined;
}

/** What a handler function answers; the status defaults to the route's success status. */
export interface Reply<R extends RouteSpec> {
  status?: number;
  body?: ResponseOf<R>;
  headers?: Record<string, string>;
  /**
   * Set-Cookie values, one header each (API Gateway's `cookies`): a header map holds one
   * `set-cookie`, and a single sign-on callback sets the session and clears the login's cookie.
   */
  cookies?: string[];
  /**
   * The body already serialized, sent as is instead of `body`: the SDK payload is serialized
   * once per revision and scope, not once per poll. It is JSON unless `headers` names another
   * content type (the state export's YAML).
   */
  json?: string;
  /**
   * The size of `json` when its maker knows it (the SDK payload, measured once when it is built):
   * the answer's Lambda size is then computed without measuring a megabyte of text per request.
   */
  jsonSize?: JsonSize;
  /**
   * A binary body in base64 (the SDK payload gzip-compressed once per revision and scope),
   * sent with `isBase64Encoded`, which API Gateway decodes; `headers` name its encoding.
   */
  base64?: string;
}

export type Operation<R extends RouteSpec> = (input: OperationInput<R>) => Promise<Reply<R>>;

/** Handler functions for one resource module's rows (`lib/<resource>/routes.ts`): what `operations.ts` exports. */
export type OperationsFor<Rows extends Record<string, RouteSpec>> = { [K in keyof Rows]: Operation<Rows[K]> };
