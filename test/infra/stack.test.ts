import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUP_TAG, SDK_USAGE_PARTITIONS } from '../../infra/constructs/group-functions.js';
import {
  ACCOUNT_DEFAULT_QUOTA,
  DEFAULT_THROTTLING,
  SDK_METRICS_INTERVAL_SECONDS,
  SDK_POLL_ROUTE,
  SDK_DELTA_ROUTE,
  SDK_REFRESH_INTERVAL_SECONDS,
  SDK_REPORT_ROUTES,
  FRONTEND_ROUTES,
  FRONTEND_SIDE_ROUTES,
  OFREP_ROUTES,
  SIZED_FOR_SDK_INSTANCES,
} from '../../infra/throttling.js';
import { addNagChecks } from '../../infra/nag.js';
import { createTogglesApp } from '../../infra/toggles-app.js';
import { TogglesStack } from '../../infra/toggles-stack.js';
import { routeTable } from '../../lib/route-table.js';
import { GROUPS } from '../../lib/http/route.js';
import { keys, tableDefinition } from '../../lib/store/table-design.js';
import { referencedId, resourcesOf, serviceFunctions, synthesizeStack, testContext, type Resource } from './synth.js';

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:DeleteTable',
  'dynamodb:UpdateTable',
];

let template: Template;
beforeAll(() => {
  // Synthesis runs cdk-nag: an unacknowledged finding would throw here and fail every test.
  template = synthesizeStack();
});

const groupOf = (fn: Resource): string | undefined =>
  (fn.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.find((tag) => tag.Key === GROUP_TAG)?.Value;

function groupFunctions(): Map<string, [string, Resource]> {
  const byGroup = new Map<string, [string, Resource]>();
  for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
    const group = groupOf(fn);
    if (group) byGroup.set(group, [id, fn]);
  }
  return byGroup;
}

function policyStatementsOfFunction(functionId: string): Array<Record<string, any>> {
  const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === functionId)!;
  const roleId = referencedId(fn.Properties.Role);
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as unknown[]).some((role) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}

const actionsOf = (statements: Array<Record<string, any>>): string[] =>
  statements.flatMap((statement) => [statement.Action].flat() as string[]);

describe('functions', () => {
  it('creates one function per endpoint group plus the bootstrap, the two snapshot writers, the two metrics stage functions and the two integrations stage functions', () => {
    expect([...groupFunctions().keys()].sort()).toEqual([...GROUPS].sort());
    expect(serviceFunctions(template)).toHaveLength(GROUPS.length + 7);
  });

  const scheduled = (description: string, partition: string) => {
    const [functionId] = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) =>
      String(fn.Properties.Description).includes(description),
    )!;
    const rules = resourcesOf(template, 'AWS::Events::Rule').filter(([, rule]) => JSON.stringify(rule.Properties.Targets).includes(functionId));
    const writes = resourcesOf(template, 'AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>)
      .filter((statement) => JSON.stringify(statement.Condition ?? {}).includes(partition));
    return { schedules: rules.map(([, rule]) => rule.Properties.ScheduleExpression), writes: writes.map((statement) => statement.Action) };
  };

  it('runs the insights snapshot daily after midnight UTC, writing only the snapshot partition', () => {
    expect(scheduled('daily insights snapshot', '"SNAPSHOTS')).toEqual({ schedules: ['cron(5 0 * * ? *)'], writes: ['dynamodb:PutItem'] });
  });

  it('gives the SDK functions the memory -c sdkMemorySize asks for, and 512 MB by default', () => {
    const memoryOf = (t: Template) => Object.fromEntries(resourcesOf(t, 'AWS::Lambda::Function')
      .map(([, fn]) => [String(fn.Properties.Description), fn.Properties.MemorySize]));
    expect(memoryOf(template)['Feature toggles: client endpoints']).toBe(512);
    const sized = memoryOf(synthesizeStack({ sdkMemorySize: '1769' }));
    expect([sized['Feature toggles: client endpoints'], sized['Feature toggles: frontend endpoints'], sized['Feature toggles: features endpoints']]).toEqual([1769, 1769, 512]);
    expect(() => synthesizeStack({ sdkMemorySize: '64' })).toThrow(/sdkMemorySize must be a whole number of MB from 128 to 10240/);
  });

  it('runs the stored SDK snapshot writer every 5 minutes, writing only the snapshot\'s items (ADR 20)', () => {
    expect(scheduled('stored SDK snapshot writer', 'SDK_SNAPSHOT*')).toEqual({ schedules: ['rate(5 minutes)'], writes: ['dynamodb:PutItem'] });
    template.resourceCountIs('AWS::Events::Rule', 2);
  });


  it('runs every function on Node.js 22 and arm64', () => {
    for (const [, fn] of serviceFunctions(template)) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  it("gives each group function the table's name and the public URL: the admin UI's distribution, the API's own without it", () => {
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    const [apiId] = resourcesOf(template, 'AWS::ApiGatewayV2::Api')[0]!;
    const [distributionId] = resourcesOf(template, 'AWS::CloudFront::Distribution')[0]!;
    const apiOnly = synthesizeStack({ adminUi: false });
    for (const [, [, fn]] of groupFunctions()) {
      expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
      expect(fn.Properties.Environment.Variables.UNLEASH_URL).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
    }
    for (const [, fn] of resourcesOf(apiOnly, 'AWS::Lambda::Function').filter(([, f]) => groupOf(f))) {
      expect(fn.Properties.Environment.Variables.UNLEASH_URL).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    }
  });

  it("takes the public URL from the unleashUrl context value when one is given, and still names the admin UI's (ADMIN_UI_URL) for the cross-site check", () => {
    const custom = synthesizeStack({ unleashUrl: 'https://flags.example.com' });
    const [distributionId] = resourcesOf(custom, 'AWS::CloudFront::Distribution')[0]!;
    const groupEnvironments = resourcesOf(custom, 'AWS::Lambda::Function')
      .filter(([, fn]) => groupOf(fn))
      .map(([, fn]) => fn.Properties.Environment.Variables);
    expect(new Set(groupEnvironments.map((variables) => variables.UNLEASH_URL))).toEqual(new Set(['https://flags.example.com']));
    for (const variables of groupEnvironments) {
      expect(variables.ADMIN_UI_URL).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
    }
  });

  it('keeps a log group with a retention period for every function', () => {
    const logGroups = new Map(resourcesOf(template, 'AWS::Logs::LogGroup'));
    for (const [, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
      const logGroup = logGroups.get(referencedId(fn.Properties.LoggingConfig.LogGroup)!);
      expect(logGroup?.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });
});

describe('HTTP API', () => {
  it('creates exactly one route per route-table row', () => {
    const expected = Object.values(routeTable).map((row) => `${row.method} ${row.path}`);
    const actual = resourcesOf(template, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey);
    expect(actual.sort()).toEqual(expected.sort());
  });

  it("sends each route to its row's group function", () => {
    const functionIdByGroup = new Map([...groupFunctions()].map(([group, [id]]) => [group, id]));
    const integrations = new Map(resourcesOf(template, 'AWS::ApiGatewayV2::Integration'));
    const routes = new Map(
      resourcesOf(template, 'AWS::ApiGatewayV2::Route').map(([, route]) => [route.Properties.RouteKey, route]),
    );
    for (const row of Object.values(routeTable)) {
      const route = routes.get(`${row.method} ${row.path}`)!;
      const [, parts] = route.Properties.Target['Fn::Join'] as [string, unknown[]];
      expect(parts[0]).toBe('integrations/');
      const integration = integrations.get(referencedId(parts[1])!)!;
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
      expect(referencedId(integration.Properties.IntegrationUri)).toBe(functionIdByGroup.get(row.group));
    }
  });

  it('reuses one integration per group', () => {
    const groupsWithRoutes = new Set(Object.values(routeTable).map((row) => row.group));
    template.resourceCountIs('AWS::ApiGatewayV2::Integration', groupsWithRoutes.size);
  });

  it('serves the $default stage, throttled, with access logs that never record the raw path', () => {
    const stages = resourcesOf(template, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const [, stage] = stages[0]!;
    expect(stage.Properties.StageName).toBe('$default');
    expect(stage.Properties.AutoDeploy).toBe(true);
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: DEFAULT_THROTTLING.admin.rateLimit,
      ThrottlingBurstLimit: DEFAULT_THROTTLING.admin.burstLimit,
    });
    const format: string = stage.Properties.AccessLogSettings.Format;
    expect(format).toContain('$context.routeKey');
    // A path such as /api/admin/api-tokens/<secret> would put a token into the logs.
    expect(format).not.toContain('$context.path');
    expect(referencedId(stage.Properties.AccessLogSettings.DestinationArn)).toBeDefined();
  });
});

/**
 * API Gateway throttles each route on its own: `DefaultRouteSettings` is every route's limit,
 * not the stage's, and a `RouteSettings` entry replaces it for one route.
 */
describe('route throttling', () => {
  const stageOf = (t: Template) => resourcesOf(t, 'AWS::ApiGatewayV2::Stage')[0]![1];
  const routeKeys = (t: Template) => resourcesOf(t, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey as string);
  /** The rate and burst API Gateway applies to one route of the template. */
  const limitsOf = (t: Template, routeKey: string) => {
    const { DefaultRouteSettings: fallback, RouteSettings: own = {} } = stageOf(t).Properties;
    const entry = own[routeKey] ?? fallback;
    return { rate: entry.ThrottlingRateLimit as number, burst: entry.ThrottlingBurstLimit as number };
  };

  it('gives the SDK poll route limits of its own, sized for every SDK instance polling, far above an admin route', () => {
    const poll = limitsOf(template, SDK_POLL_ROUTE);
    const admin = stageOf(template).Properties.DefaultRouteSettings;
    expect(stageOf(template).Properties.RouteSettings?.[SDK_POLL_ROUTE]).toBeDefined();
    // 200/s (the old stage-wide default, which API Gateway applies per route) carried 3,000 instances at 15 s.
    expect(poll.rate * SDK_REFRESH_INTERVAL_SECONDS).toBeGreaterThanOrEqual(SIZED_FOR_SDK_INSTANCES);
    expect(SIZED_FOR_SDK_INSTANCES).toBeGreaterThanOrEqual(10_000);
    expect(poll.rate).toBeGreaterThan(10 * admin.ThrottlingRateLimit);
    expect(poll.burst).toBeGreaterThanOrEqual(poll.rate);
  });

  it('gives the metrics and register routes limits for every SDK instance reporting once a minute', () => {
    for (const routeKey of SDK_REPORT_ROUTES) {
      const report = limitsOf(template, routeKey);
      expect(stageOf(template).Properties.RouteSettings?.[routeKey], routeKey).toBeDefined();
      expect(report.rate * SDK_METRICS_INTERVAL_SECONDS, routeKey).toBeGreaterThanOrEqual(SIZED_FOR_SDK_INSTANCES);
    }
  });

  it('names only routes the API has, sets both limits in each entry, and creates the stage after them', () => {
    const stage = stageOf(template);
    const routeIds = new Map(resourcesOf(template, 'AWS::ApiGatewayV2::Route').map(([id, route]) => [route.Properties.RouteKey as string, id]));
    const entries = Object.entries(stage.Properties.RouteSettings as Record<string, Record<string, unknown>>);
    expect(entries.map(([key]) => key).sort()).toEqual([SDK_POLL_ROUTE, SDK_DELTA_ROUTE, ...SDK_REPORT_ROUTES, ...FRONTEND_ROUTES, ...FRONTEND_SIDE_ROUTES, ...OFREP_ROUTES].sort());
    for (const [routeKey, entry] of entries) {
      // API Gateway refuses a stage naming a route it does not have yet ("Unable to find Route by key").
      expect(routeIds.has(routeKey), routeKey).toBe(true);
      expect(stage.DependsOn, routeKey).toContain(routeIds.get(routeKey));
      // A member an entry leaves out falls back to API Gateway's default, not to DefaultRouteSettings.
      expect(Object.keys(entry).sort(), routeKey).toEqual(['ThrottlingBurstLimit', 'ThrottlingRateLimit']);
      expect(Number.isInteger(entry.ThrottlingBurstLimit), routeKey).toBe(true);
    }
  });

  it("keeps every route, and all of them together, within API Gateway's default account quota", () => {
    const keys = routeKeys(template);
    const total = keys.reduce((sum, key) => sum + limitsOf(template, key).rate, 0);
    expect(total).toBeLessThanOrEqual(ACCOUNT_DEFAULT_QUOTA.rateLimit);
    for (const key of keys) {
      expect(limitsOf(template, key).burst, key).toBeLessThanOrEqual(ACCOUNT_DEFAULT_QUOTA.burstLimit);
    }
  });

  it('takes the SDK and admin limits from context, the report routes following the SDK limits', () => {
    const custom = synthesizeStack({ sdkRateLimit: '4000', adminRateLimit: 20, adminBurstLimit: '30' });
    expect(limitsOf(custom, SDK_POLL_ROUTE)).toEqual({ rate: 4000, burst: 8000 });
    expect(limitsOf(custom, 'POST /api/client/metrics')).toEqual({ rate: 1000, burst: 2000 });
    expect(limitsOf(custom, 'GET /api/admin/features')).toEqual({ rate: 20, burst: 30 });
  });

  it('warns, without failing, when the limits pass the default account quota', () => {
    const { stack } = createTogglesApp({ context: testContext({ sdkRateLimit: 20_000 }) });
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('account quota'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    const { stack: quiet } = createTogglesApp({ context: testContext() });
    expect(Annotations.fromStack(quiet).findWarning('*', Match.stringLikeRegexp('account quota'))).toEqual([]);
  });

  it('refuses a limit API Gateway would not take', () => {
    expect(() => synthesizeStack({ sdkRateLimit: 'fast' })).toThrow(/sdkRateLimit/);
    expect(() => synthesizeStack({ adminBurstLimit: '2.5' })).toThrow(/adminBurstLimit/);
    expect(() => synthesizeStack({ sdkRateLimit: 0 })).toThrow(/sdkRateLimit/);
  });
});

/** The generated key that seals stored secrets (ADR 6). */
function secretKeyId(): string {
  const found = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
    String(secret.Properties.Description).startsWith('Key material'),
  );
  expect(found).toHaveLength(1);
  return found[0]![0];
}

describe('secret key for sealed secrets', () => {
  it('is generated by CloudFormation and kept when the stack goes', () => {
    const id = secretKeyId();
    const [, secret] = resourcesOf(template, 'AWS::SecretsManager::Secret').find(([key]) => key === id)!;
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.DeletionPolicy).toBe('Retain');
  });

  it('reaches only the access function and the instance function (integrations\' sealed parameters), as an ARN read with the SDK (no layer, so no region map)', () => {
    const keyId = secretKeyId();
    for (const [group, [id, fn]] of groupFunctions()) {
      const reads = policyStatementsOfFunction(id).filter((statement) =>
        [statement.Resource].flat().some((resource) => referencedId(resource) === keyId),
      );
      const variables = fn.Properties.Environment.Variables;
      if (group === 'access' || group === 'instance') {
        expect(actionsOf(reads)).toContain('secretsmanager:GetSecretValue');
        expect(variables.SECRET_KEY_ARN).toEqual({ Ref: keyId });
        // The Parameters and Secrets extension came from a map of 21 Regions (issue 13, finding 2).
        expect(fn.Properties.Layers).toBeUndefined();
      } else {
        expect(reads, group).toEqual([]);
        expect(variables.SECRET_KEY_ARN, group).toBeUndefined();
      }
      expect(variables.SECRET_KEY, group).toBeUndefined();
    }
  });
});

/** The admin UI distribution's origin secret (infra/constructs/admin-ui.ts); none without the admin UI (`-c adminUi=false`). */
function originSecretIds(): string[] {
  const found = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) => /distribution/i.test(String(secret.Properties.Description)));
  expect(found.length).toBe(resourcesOf(template, 'AWS::CloudFront::Distribution').length);
  return found.map(([id]) => id);
}

describe("the admin UI distribution's origin secret", () => {
  it('reaches only the access function, which serves the logins it counts, as an ARN read with the SDK', () => {
    const [secretId] = originSecretIds();
    for (const [group, [id, fn]] of groupFunctions()) {
      const reads = policyStatementsOfFunction(id).filter((statement) =>
        [statement.Resource].flat().some((resource) => referencedId(resource) === secretId),
      );
      const variables = fn.Properties.Environment.Variables;
      if (group === 'access') {
        if (secretId) expect(actionsOf(reads)).toContain('secretsmanager:GetSecretValue');
        expect(variables.CLOUDFRONT_ORIGIN_SECRET_ARN).toEqual(secretId ? { Ref: secretId } : undefined);
      } else {
        expect(reads, group).toEqual([]);
        expect(variables.CLOUDFRONT_ORIGIN_SECRET_ARN, group).toBeUndefined();
      }
      expect(variables.CLOUDFRONT_ORIGIN_SECRET, group).toBeUndefined();
    }
  });
});

describe('permissions', () => {
  it('lets the client function read the table and write only the SDK usage partitions and the Edge validation counts', () => {
    const [clientId] = groupFunctions().get('client')!;
    const statements = policyStatementsOfFunction(clientId);
    const actions = actionsOf(statements);
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).toContain('dynamodb:Query');
    expect(actions.some((action) => action.endsWith('*'))).toBe(false);
    const writing = statements.filter((statement) => actionsOf([statement]).some((a) => WRITE_ACTIONS.includes(a)));
    expect(writing).toHaveLength(1);
    expect(actionsOf(writing).sort()).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(writing[0]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...SDK_USAGE_PARTITIONS, keys.edgeValidationPartitions()] },
    });
  });

  it('lets every group function that edits resources read and write the table', () => {
    for (const [group, [id]] of groupFunctions()) {
      // The SDK path, the read-only state export and the instance function have narrower access (table-access.test.ts).
      if (group === 'client' || group === 'state' || group === 'instance') continue;
      const actions = actionsOf(policyStatementsOfFunction(id));
      expect(actions, group).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
    }
  });

  it('grants group functions nothing beyond the table and their own logs, the access function the secret key and the origin secret, the instance function the secret key, the client and frontend functions the metrics queue', () => {
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    const keyId = secretKeyId();
    const originSecrets = originSecretIds();
    const [reportsQueueId] = resourcesOf(template, 'AWS::SQS::Queue').find(([id]) => /^MetricsReports[0-9A-F]+$/.test(id))!;
    for (const [group, [id, fn]] of groupFunctions()) {
      const ownLogGroup = referencedId(fn.Properties.LoggingConfig.LogGroup);
      const allowed = new Set([tableId, ownLogGroup, ...(group === 'access' ? [keyId, ...originSecrets] : []), ...(group === 'instance' ? [keyId] : []), ...(group === 'client' || group === 'frontend' ? [reportsQueueId] : [])]);
      for (const statement of policyStatementsOfFunction(id)) {
        const resources = [statement.Resource].flat().map(referencedId);
        expect(resources.every((resource) => allowed.has(resource)), group).toBe(true);
        expect(statement.Effect).toBe('Allow');
      }
    }
    for (const [, role] of resourcesOf(template, 'AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('table', () => {
  it('is built from the shared table definition, on demand, with point-in-time recovery, and retained', () => {
    const tables = resourcesOf(template, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [, table] = tables[0]!;
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.GlobalSecondaryIndexes ?? []).toHaveLength(tableDefinition.indexes.length);
  });

  it('adds one index per entry of the table definition and stays cdk-nag clean', () => {
    const app = new App({ context: testContext() });
    const definition = {
      ...tableDefinition,
      indexes: [{ name: 'byExample', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
    };
    const stack = new TogglesStack(app, 'WithIndex', { tableDefinition: definition });
    addNagChecks(app);
    const withIndex = Template.fromStack(stack);
    const [, table] = resourcesOf(withIndex, 'AWS::DynamoDB::Table')[0]!;
    expect(table.Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byExample',
        KeySchema: [
          { AttributeName: 'gsi1pk', KeyType: 'HASH' },
          { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
  });
});

describe('cdk-nag', () => {
  it('fails synthesis on a finding nobody acknowledged', () => {
    const { stack } = createTogglesApp({ context: testContext() });
    // A table without point-in-time recovery is an AwsSolutions-DDB3 finding.
    new dynamodb.Table(stack, 'Unchecked', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
    expect(() => Template.fromStack(stack)).toThrow(/AwsSolutions-DDB3/);
  });

  it('does not run on a stack outside the app it was added to', () => {
    // Guards the test above: the failure comes from the plugin, not from the table itself.
    const bare = new Stack(new App({ context: testContext() }), 'Bare');
    new dynamodb.Table(bare, 'Unchecked', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
    expect(() => Template.fromStack(bare)).not.toThrow();
  });
});
