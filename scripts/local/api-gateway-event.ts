import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface IncomingRequest {
  method: string;
  /** Path and query string as received, e.g. `/api/client/features?project=a`. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  routeKey: string;
  pathParameters: Record<string, string>;
  sourceIp: string;
}

/** Builds the API Gateway HTTP API (payload 2.0) event that the cloud would hand a function. */
export function toApiGatewayEvent(request: IncomingRequest): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = request.url.split(/\?(.*)/s);
  const queryStringParameters: Record<string, string> = {};
  if (rawQueryString) {
    const query = new URLSearchParams(rawQueryString);
    for (const key of new Set(query.keys())) queryStringParameters[key] = query.getAll(key).join(',');
  }
  const now = new Date();
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
      requestId: randomUUID(),
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

/** A Lambda context good enough for handlers that read only the request id. */
export function localContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: thirtySeconds,
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}

// Shared rather than made per request: every request of the local server builds a context.
const thirtySeconds = (): number => 30_000;
const ignore = (): undefined => undefined;

function safeDecodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
