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
  const [rawPath = '/', rawQueryString = ''] = request.url.split(/\?(.*)/s);
  const queryStringParameters: Record<string, string> = {};
  if (rawQueryString) {
    const query = new URLSearchParams(rawQueryString);
    for (const key of new Set(query.keys())) queryStringParameters[key] = query.getAll(key).join(',');
  }
  const now = request.receivedAt ?? new Date();
  const hasBody = request.body.length > 0;
  return {
    version: '2.0',
    routeKey: request.routeKey,
    rawPath,
    rawQueryString,
    headers: request.headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    ...(Object.keys(request.pathParameters).length > 0 ? { pathParameters: request.pathParameters } : {}),
    requestContext: {
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
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    // The API takes only JSON, which API Gateway passes through as text.
    ...(hasBody ? { body: request.body.toString('utf8') } : {}),
    isBase64Encoded: false,
  };
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
  readonly invokedFunctionArn: string;
  readonly awsRequestId = randomUUID();
  readonly logGroupName: string;

  constructor(
    readonly functionName: string,
    private readonly deadline: number,
  ) {
    this.invokedFunctionArn = `arn:aws:lambda:local:000000000000:function:${functionName}`;
    this.logGroupName = `/aws/lambda/${functionName}`;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

function safeDecodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
