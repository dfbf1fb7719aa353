import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { FUNCTION_TIMEOUT_MS } from '../lib/time-budget.js';

export interface IncomingRequest {
  method: string;
  /** Path and query string as received, e.g. `/api/client/features?project=a`. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  routeKey: string;
  pathParameters: Record<string, string>;
  sourceIp: string;
  /** Fixed by the sample events (events/), so that regenerating them changes nothing; fresh otherwise. */
  requestId?: string;
  receivedAt?: Date;
}

/** Builds the API Gateway HTTP API (payload 2.0) event that the cloud would hand a function. */
export function toApiGatewayEvent(request: IncomingRequest): APIGatewayProxyEventV2 {
  const mark = request.url.indexOf('?');
  const rawPath = mark < 0 ? request.url : request.url.slice(0, mark);
  const rawQueryString = mark < 0 ? '' : request.url.slice(mark + 1);
  const queryStringParameters: Record<string, string> = {};
  if (rawQueryString) {
    const query = new URLSearchParams(rawQueryString);
    for (const key of new Set(query.keys())) queryStringParameters[key] = query.getAll(key).join(',');
  }
  const timeEpoch = request.receivedAt?.getTime() ?? Date.now();
  // Fields in API Gateway's order, the optional ones added where they belong (no object spread per request).
  const event: Partial<APIGatewayProxyEventV2> = {
    version: '2.0',
    routeKey: request.routeKey,
    rawPath,
    rawQueryString,
    headers: request.headers,
  };
  if (rawQueryString) event.queryStringParameters = queryStringParameters;
  if (hasKeys(request.pathParameters)) event.pathParameters = request.pathParameters;
  event.requestContext = {
    accountId: 'local',
    apiId: 'local',
    domainName: request.headers.host ?? 'localhost',
    domainPrefix: 'localhost',
    http: {
      method: request.method,
      path: safeDecodePath(rawPath),
      protocol: 'HTTP/1.1',
      sourceIp: request.sourceIp,
      userAgent: request.headers['user-agent'] ?? '',
    },
    requestId: request.requestId ?? randomUUID(),
    routeKey: request.routeKey,
    stage: '$default',
    time: timeText(timeEpoch),
    timeEpoch,
  };
  // The API takes only JSON, which API Gateway passes through as text.
  if (request.body.length > 0) event.body = request.body.toString('utf8');
  event.isBase64Encoded = false;
  return event as APIGatewayProxyEventV2;
}

function hasKeys(object: Record<string, string>): boolean {
  for (const _ in object) return true;
  return false;
}

/** The last request time's text, by its second: formatting a date costs more than the rest of the event. */
let lastTime = { second: Number.NaN, text: '' };

function timeText(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastTime.second) lastTime = { second, text: new Date(epochMs).toUTCString() };
  return lastTime.text;
}

/**
 * The Lambda context the local runtime hands a function: its remaining time counts down from
 * the function's timeout (the stack's, lib/time-budget.ts), as in the cloud, so the chain's
 * early answer and the store's refusal of late writes behave locally as they do in AWS.
 */
export function localContext(functionName: string, timeoutMs: number = FUNCTION_TIMEOUT_MS): Context {
  return new LocalContext(functionName, Date.now() + timeoutMs);
}

/**
 * A class rather than an object literal with closures: every request of the local server
 * builds a context, and its methods are shared on the prototype.
 */
class LocalContext implements Context {
  readonly callbackWaitsForEmptyEventLoop = false;
  readonly functionVersion = '$LATEST';
  readonly memoryLimitInMB = '512';
  readonly logStreamName = 'local';
  private requestId: string | undefined;

  constructor(
    readonly functionName: string,
    private readonly deadline: number,
  ) {}

  get invokedFunctionArn(): string {
    return `arn:aws:lambda:local:000000000000:function:${this.functionName}`;
  }

  get logGroupName(): string {
    return `/aws/lambda/${this.functionName}`;
  }

  /** Made when first read (an error's answer names it): most invocations never do. */
  get awsRequestId(): string {
    this.requestId ??= randomUUID();
    return this.requestId;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

/** The path as API Gateway decodes it; without a `%` there is nothing to decode. */
function safeDecodePath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
