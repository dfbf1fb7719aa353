import { Annotations, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, LogGroupLogDestination, type HttpRoute, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Group, HttpMethod as RouteMethod, RouteSpec } from '../../lib/http/route.js';
import { DEFAULT_THROTTLING, quotaWarnings, routeKeyOf, routeOverrides, type ApiThrottling } from '../throttling.js';

export interface TogglesApiProps {
  /** Per-route limits (infra/throttling.ts); the defaults are sized for 15,000 SDK instances. */
  throttling?: ApiThrottling;
}

const METHODS: Record<RouteMethod, HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  PATCH: HttpMethod.PATCH,
  DELETE: HttpMethod.DELETE,
  OPTIONS: HttpMethod.OPTIONS,
  ANY: HttpMethod.ANY,
};

/**
 * The HTTP API: a `$default` stage (the group routers match the path as the client sent it,
 * so a named stage prefix would break them), throttled per route, with access logs.
 *
 * Throttling is per route, not per stage: `DefaultRouteSettings` gives each route its own
 * bucket with the admin limits, and `RouteSettings` gives the SDK routes, which carry every
 * SDK instance's traffic, limits sized from that load (infra/throttling.ts).
 */
export class TogglesApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: logs.LogGroup;
  readonly throttling: ApiThrottling;

  constructor(scope: Construct, id: string, props: TogglesApiProps = {}) {
    super(scope, id);
    this.throttling = props.throttling ?? DEFAULT_THROTTLING;

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Feature toggles (Unleash API)',
      createDefaultStage: false,
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: this.throttling.admin,
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
    const routes = new Map<string, HttpRoute>();
    for (const row of rows) {
      const [route] = this.httpApi.addRoutes({ path: row.path, methods: [METHODS[row.method]], integration: integrationOf(row.group) });
      routes.set(routeKeyOf(row), route!);
    }
    this.throttleRoutes(routes);
  }

  /**
   * `RouteSettings` for the routes whose limits differ from the stage default. API Gateway
   * refuses a stage that names a route it does not have yet ("Unable to find Route by key"),
   * so the stage waits for those routes; each entry carries both limits, as an entry's
   * missing member falls back to API Gateway's own default, not to `DefaultRouteSettings`.
   */
  private throttleRoutes(routes: Map<string, HttpRoute>): void {
    const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const [routeKey, limits] of Object.entries(routeOverrides(this.throttling))) {
      const route = routes.get(routeKey);
      if (!route) throw new Error(`Throttling names route ${routeKey}, which the route table does not have`);
      this.stage.node.addDependency(route);
      settings[routeKey] = { ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit };
    }
    (this.stage.node.defaultChild as CfnStage).routeSettings = settings;
    for (const warning of quotaWarnings([...routes.keys()], this.throttling)) {
      Annotations.of(this.stage).addWarningV2('toggles:throttle-quota', warning);
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
