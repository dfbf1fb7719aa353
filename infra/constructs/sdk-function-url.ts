import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * Where SDKs reach the SDK API (`/api/client/*`, the client function):
 *
 * - `apiGateway` (the default): the HTTP API, like every other route, with its per-route
 *   throttling, access logs and custom domains (infra/constructs/toggles-api.ts).
 * - `functionUrl` (`cdk deploy -c sdkFrontDoor=functionUrl`): a Lambda function URL on the client
 *   function as well, for SDKs pointed at the `SdkUrl` output. A poll then costs Lambda's request
 *   and duration charges only, not API Gateway's $1.00 per million requests. The HTTP API keeps
 *   serving every route, SDK routes included, so both URLs work and a fleet can move over SDK by SDK.
 *
 * The URL's auth type is NONE: as on API Gateway, the function checks the Unleash API token of
 * every request itself (lib/http/authorize.ts); AWS_IAM would need SigV4-signing SDKs, which
 * Unleash SDKs are not. CORS stays off: the SDK API serves server-side SDKs (browsers use the
 * Frontend API, which this service does not serve). The invoke mode is BUFFERED, like the API
 * Gateway integration (6 MB per response); RESPONSE_STREAM could later serve a larger payload.
 *
 * A function URL sends every path to the function with the route key `$default`: the function
 * routes by method and path against its own rows and answers 404 for any other path, admin
 * routes included (lib/http/router.ts), so the URL exposes the SDK API and nothing else.
 *
 * A function URL has no per-route throttling. Its only limit is the function's concurrency:
 * `-c sdkReservedConcurrency=<n>` reserves n for the client function, which caps it at n
 * invocations at once and, through a function URL, at 10 × n requests per second (Lambda guide,
 * "Creating and managing Lambda function URLs", throttling); a request over it is answered 429.
 * It is not set by default: a reservation is taken out of the Region's account concurrency, of
 * which Lambda keeps 100 unreserved, so an account with the new-account quota (10) refuses any
 * reservation and the deployment fails; and it caps the function behind API Gateway too.
 */
export type SdkFrontDoor = 'apiGateway' | 'functionUrl';

export const SDK_FRONT_DOOR_CONTEXT_KEY = 'sdkFrontDoor';
export const SDK_RESERVED_CONCURRENCY_CONTEXT_KEY = 'sdkReservedConcurrency';

/** `-c sdkFrontDoor=…`; unset: `apiGateway`. Throws on anything else. */
export function sdkFrontDoorFromContext(value: unknown): SdkFrontDoor {
  if (value === undefined || value === null || value === '' || value === 'apiGateway') return 'apiGateway';
  if (value === 'functionUrl') return 'functionUrl';
  throw new Error(`Context ${SDK_FRONT_DOOR_CONTEXT_KEY} must be apiGateway or functionUrl, got ${JSON.stringify(value)}`);
}

/** `-c sdkReservedConcurrency=<n>`, a positive whole number; unset: none reserved. */
export function sdkReservedConcurrencyFromContext(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`Context ${SDK_RESERVED_CONCURRENCY_CONTEXT_KEY} must be a positive whole number of concurrent invocations, got ${JSON.stringify(value)}`);
  }
  return n;
}

export interface SdkFunctionUrlProps {
  /** The client function (the SDK API's group). */
  function: lambda.Function;
  /** Concurrency reserved for the function; undefined: none (the account's unreserved pool). */
  reservedConcurrency?: number | undefined;
}

/** The client function's URL and the `SdkUrl` output naming the base URL SDKs are given. */
export class SdkFunctionUrl extends Construct {
  readonly functionUrl: lambda.FunctionUrl;
  /** `<function URL>api`: the function URL ends with a slash. */
  readonly sdkUrl: string;

  constructor(scope: Construct, id: string, props: SdkFunctionUrlProps) {
    super(scope, id);
    this.functionUrl = new lambda.FunctionUrl(this, 'Url', {
      function: props.function,
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.BUFFERED,
    });
    if (props.reservedConcurrency !== undefined) {
      (props.function.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = props.reservedConcurrency;
    }
    this.sdkUrl = Fn.join('', [this.functionUrl.url, 'api']);
    new CfnOutput(Stack.of(this), 'SdkUrl', {
      value: this.sdkUrl,
      description: "SDKs' URL on the client function's Lambda function URL (sdkFrontDoor=functionUrl); the admin API stays on <ApiUrl>/api",
    });
  }

  /** The front door the context asks for: a function URL on `client`, or nothing (API Gateway only). */
  static fromContext(scope: Construct, id: string, client: lambda.Function): SdkFunctionUrl | undefined {
    const context = (key: string): unknown => scope.node.tryGetContext(key);
    const reservedConcurrency = sdkReservedConcurrencyFromContext(context(SDK_RESERVED_CONCURRENCY_CONTEXT_KEY));
    if (sdkFrontDoorFromContext(context(SDK_FRONT_DOOR_CONTEXT_KEY)) === 'apiGateway') {
      if (reservedConcurrency !== undefined) {
        throw new Error(`Context ${SDK_RESERVED_CONCURRENCY_CONTEXT_KEY} applies to ${SDK_FRONT_DOOR_CONTEXT_KEY}=functionUrl only; API Gateway throttles the SDK routes itself (sdkRateLimit)`);
      }
      return undefined;
    }
    return new SdkFunctionUrl(scope, id, { function: client, reservedConcurrency });
  }
}
