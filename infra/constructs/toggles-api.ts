import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, LogGroupLogDestination, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Group, HttpMethod as RouteMethod, RouteSpec } from '../../lib/http/route.js';

/**
 * Stage-wide limits. SDKs poll every few seconds from every application instance, so the
 * steady rate leaves room for a few hundred instances while capping what a runaway client
 * can cost; raise it together with the Lambda concurrency you are prepared to pay for.
 */
export const STAGE_THROTTLE = { rateLimit: 200, burstLimit: 400 } as const;

const METHODS: Record<RouteMethod, HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  PATCH: HttpMethod.PATCH,
  DELETE: HttpMethod.DELETE,
  ANY: HttpMethod.ANY,
};

/**
 * The HTTP API: a `$default` stage (the group routers match the path as the client sent it,
 * so a named stage prefix would break them), throttled, with access logs.
 */
export class TogglesApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Feature toggles (Unleash API)',
      createDefaultStage: false,
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: STAGE_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every route is authorized inside its Lambda with Unleash API tokens (the interface SDKs speak), ' +
        'checked against the route table row; API Gateway authorizers cannot read that token model.',
    });
  }

  /**
   * One route per route-table row, each to its group's function; one integration per group.
   * One invoke permission per function for the whole API, not one per route: Lambda keeps each
   * permission as a statement of the function's resource policy and refuses a deployment past
   * 20 KB, which the features function's 48 route-scoped statements passed
   * (test/infra/resource-policy.test.ts). Every route of a group runs the same handler, which
   * routes and authorizes by the route table itself, so a per-route scope added no protection.
   */
  addRouteTable(rows: readonly RouteSpec[], functions: Record<Group, IFunction>): void {
    const integrations = new Map<Group, HttpLambdaIntegration>();
    const integrationOf = (group: Group): HttpLambdaIntegration => {
      let integration = integrations.get(group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${group}-integration`, functions[group], { scopePermissionToRoute: false });
        integrations.set(group, integration);
      }
      return integration;
    };
    for (const row of rows) {
      this.httpApi.addRoutes({ path: row.path, methods: [METHODS[row.method]], integration: integrationOf(row.group) });
    }
  }
}

/**
 * `$context.routeKey` rather than `$context.path`: some paths carry a token secret
 * (DELETE /api/admin/api-tokens/{token}), and access logs must never hold one.
 */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
};
