import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeStack } from './synth.js';

/**
 * AWS limits that fail `cdk deploy` (or break the service once deployed) and that neither
 * CloudFormation Validate (test/infra/cloudformation-validate.test.ts) nor the other template
 * tests check. Each check is a function of the template: the stack must give no finding, and a
 * copy of the stack pushed over the limit must give one (issue 13, deliverable 4).
 *
 * Where a value is only known at deploy time (a Ref, a GetAtt), it is rendered as the longest
 * value AWS allows for it, in the longest partition and Region, so a pass holds in any account.
 *
 * Sources (AWS documentation):
 * - Lambda quotas (docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html): memory
 *   128–10,240 MB; /tmp 512–10,240 MB; environment variables 4 KB in all.
 * - Lambda environment variables (docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html):
 *   keys start with a letter and hold letters, digits and underscores; the reserved keys below.
 * - IAM and AWS STS quotas (docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html):
 *   a role's inline policies together at most 10,240 characters, white space not counted;
 *   10 managed policies per role by default.
 * - IAM JSON policy elements: Action (…/reference_policies_elements_action.html): `service:action`.
 * - HTTP API quotas (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html):
 *   300 routes per API (can be raised), 300 integrations per API, integration timeout 30 s,
 *   access log template 3 KB (none of these can be raised but the routes).
 * - HTTP API routes (…/http-api-develop-routes.html): `$default`, or a method and a path.
 * - CloudWatch PutMetricAlarm (docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/
 *   API_PutMetricAlarm.html): at most 5 actions for each of ALARM, OK and INSUFFICIENT_DATA.
 * - CloudFormation quotas (docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/
 *   cloudformation-limits.html): a template body in S3 at most 1 MB (`cdk deploy` uploads it).
 */

type Template = { Resources: Record<string, Resource> } & Record<string, any>;
type Resource = { Type: string; Properties?: Record<string, any> } & Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Deploy-time values at their longest
// ---------------------------------------------------------------------------------------------

const PARTITION = 'aws-iso-b';
const REGION = 'ap-southeast-5';
const ACCOUNT = '123456789012';
const URL_SUFFIX = 'amazonaws.com.cn';
const PSEUDO: Record<string, string> = {
  'AWS::Partition': PARTITION,
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': URL_SUFFIX,
  'AWS::StackName': 's'.repeat(128),
};
const arn = (service: string, resource: string): string => `arn:${PARTITION}:${service}:${REGION}:${ACCOUNT}:${resource}`;

/** What `Ref` gives for each resource type the checked values refer to, at its longest. */
const LONGEST_REF: Record<string, string> = {
  'AWS::DynamoDB::Table': 't'.repeat(255), // table names: 3–255 characters
  'AWS::SecretsManager::Secret': arn('secretsmanager', `secret:${'n'.repeat(512)}-AbCdEf`), // names up to 512
  'AWS::ApiGatewayV2::Api': 'a'.repeat(10),
  'AWS::SNS::Topic': arn('sns', 'n'.repeat(256)),
  // A queue's Ref is its URL; queue names are at most 80 characters.
  'AWS::SQS::Queue': `https://sqs.${REGION}.${URL_SUFFIX}/${ACCOUNT}/${'q'.repeat(80)}`,
  // An event bus's Ref is its name: at most 256 characters.
  'AWS::Events::EventBus': 'e'.repeat(256),
};
/** What `Fn::GetAtt` gives, by resource type and attribute, at its longest. */
const LONGEST_ATT: Record<string, string> = {
  'AWS::DynamoDB::Table.Arn': arn('dynamodb', `table/${'t'.repeat(255)}`),
  'AWS::DynamoDB::Table.StreamArn': arn('dynamodb', `table/${'t'.repeat(255)}/stream/2026-01-01T00:00:00.000`),
  'AWS::Logs::LogGroup.Arn': arn('logs', `log-group:${'l'.repeat(512)}:*`),
  'AWS::ApiGatewayV2::Api.ApiEndpoint': `https://${'a'.repeat(10)}.execute-api.${REGION}.${URL_SUFFIX}`,
  'AWS::Lambda::Function.Arn': arn('lambda', `function:${'f'.repeat(64)}`),
  'AWS::KMS::Key.Arn': arn('kms', `key/${'k'.repeat(36)}`),
  'AWS::SQS::Queue.Arn': arn('sqs', 'q'.repeat(80)),
  'AWS::Events::EventBus.Arn': arn('events', `event-bus/${'e'.repeat(256)}`),
  'AWS::Events::EventBus.Name': 'e'.repeat(256),
  'AWS::S3::Bucket.Arn': `arn:${PARTITION}:s3:::${'b'.repeat(63)}`, // bucket names: 3–63 characters
  'AWS::CloudFront::Distribution.DomainName': 'd111111abcdef8.cloudfront.net',
};

/**
 * A CloudFormation value with every reference at its longest. A reference this table does not
 * know fails the test, so whoever adds one states how long it can be.
 */
function renderLongest(value: unknown, template: Template): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const v = value as Record<string, any>;
  if (typeof v.Ref === 'string') {
    if (v.Ref in PSEUDO) return PSEUDO[v.Ref]!;
    const type = template.Resources[v.Ref]?.Type;
    const longest = type && LONGEST_REF[type];
    if (longest) return longest;
    throw new Error(`no longest value known for Ref of ${type ?? v.Ref}`);
  }
  if (Array.isArray(v['Fn::GetAtt'])) {
    const [id, attribute] = v['Fn::GetAtt'] as [string, string];
    const key = `${template.Resources[id]?.Type}.${attribute}`;
    const longest = LONGEST_ATT[key];
    if (longest) return longest;
    throw new Error(`no longest value known for GetAtt ${key}`);
  }
  if (Array.isArray(v['Fn::Join'])) {
    const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => renderLongest(part, template)).join(separator);
  }
  // `Fn::Sub` of pseudo parameters only (the CDK asset bucket's name).
  if (typeof v['Fn::Sub'] === 'string') {
    return (v['Fn::Sub'] as string).replace(/\$\{([^}]+)\}/g, (_, name: string) => renderLongest({ Ref: name }, template));
  }
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

/** A JSON document (a policy) with every reference inside it at its longest. */
function renderDocument(node: unknown, template: Template): unknown {
  if (Array.isArray(node)) return node.map((child) => renderDocument(child, template));
  if (node && typeof node === 'object') {
    const keys = Object.keys(node);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::'))) return renderLongest(node, template);
    return Object.fromEntries(Object.entries(node).map(([k, child]) => [k, renderDocument(child, template)]));
  }
  return node;
}

const resourcesOf = (template: Template, type: string): Array<[string, Resource]> =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);

const referencedId = (value: any): string | undefined =>
  typeof value?.Ref === 'string' ? value.Ref : Array.isArray(value?.['Fn::GetAtt']) ? value['Fn::GetAtt'][0] : undefined;

// ---------------------------------------------------------------------------------------------
// The checks: each returns one line per violation, empty when the template is within the limit
// ---------------------------------------------------------------------------------------------

const LAMBDA_ENVIRONMENT_BYTES = 4 * 1024;
const LAMBDA_MEMORY_MB = { min: 128, max: 10_240 };
const LAMBDA_TMP_MB = { min: 512, max: 10_240 };
const ENVIRONMENT_KEY = /^[a-zA-Z][a-zA-Z0-9_]+$/;
/** Keys the Lambda runtime sets itself; a function configuration that sets one is refused. */
const RESERVED_ENVIRONMENT_KEYS = new Set([
  '_HANDLER', '_X_AMZN_TRACE_ID', 'AWS_DEFAULT_REGION', 'AWS_REGION', 'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME', 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE', 'AWS_LAMBDA_LOG_GROUP_NAME', 'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API', 'LAMBDA_TASK_ROOT', 'LAMBDA_RUNTIME_DIR',
]);

/** Bytes of a function's environment as Lambda measures it: the variables as one JSON object. */
function environmentBytes(fn: Resource, template: Template): number {
  const variables = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
  const rendered = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, renderLongest(v, template)]));
  return Buffer.byteLength(JSON.stringify(rendered));
}

function lambdaFindings(template: Template): string[] {
  return resourcesOf(template, 'AWS::Lambda::Function').flatMap(([id, fn]) => {
    const found: string[] = [];
    const bytes = environmentBytes(fn, template);
    if (bytes > LAMBDA_ENVIRONMENT_BYTES) found.push(`${id}: environment ${bytes} bytes > ${LAMBDA_ENVIRONMENT_BYTES}`);
    for (const key of Object.keys(fn.Properties?.Environment?.Variables ?? {})) {
      if (RESERVED_ENVIRONMENT_KEYS.has(key)) found.push(`${id}: environment key ${key} is reserved by Lambda`);
      else if (!ENVIRONMENT_KEY.test(key)) found.push(`${id}: environment key ${key} is not a valid name`);
    }
    const memory = fn.Properties?.MemorySize;
    if (memory !== undefined && (memory < LAMBDA_MEMORY_MB.min || memory > LAMBDA_MEMORY_MB.max)) {
      found.push(`${id}: MemorySize ${memory} outside ${LAMBDA_MEMORY_MB.min}–${LAMBDA_MEMORY_MB.max}`);
    }
    const tmp = fn.Properties?.EphemeralStorage?.Size;
    if (tmp !== undefined && (tmp < LAMBDA_TMP_MB.min || tmp > LAMBDA_TMP_MB.max)) {
      found.push(`${id}: EphemeralStorage ${tmp} outside ${LAMBDA_TMP_MB.min}–${LAMBDA_TMP_MB.max}`);
    }
    return found;
  });
}

const ROLE_INLINE_POLICY_CHARS = 10_240;
const ROLE_MANAGED_POLICIES = 10;
const IAM_ACTION = /^(\*|[a-z0-9-]+:[A-Za-z0-9*?]+)$/;

/** Characters IAM counts for a policy document: its JSON without white space. */
const policyChars = (document: unknown, template: Template): number =>
  JSON.stringify(renderDocument(document, template)).replace(/\s+/g, '').length;

/** Characters of each role's inline policies together: the role's own and each AWS::IAM::Policy naming it. */
function inlinePolicyCharsByRole(template: Template): Map<string, number> {
  const chars = new Map<string, number>();
  for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
    const own = (role.Properties?.Policies ?? []) as Array<{ PolicyDocument: unknown }>;
    chars.set(id, own.reduce((sum, p) => sum + policyChars(p.PolicyDocument, template), 0));
  }
  for (const [, policy] of resourcesOf(template, 'AWS::IAM::Policy')) {
    for (const role of (policy.Properties?.Roles ?? []) as unknown[]) {
      const roleId = referencedId(role);
      if (roleId) chars.set(roleId, (chars.get(roleId) ?? 0) + policyChars(policy.Properties?.PolicyDocument, template));
    }
  }
  return chars;
}

/** Every policy document in the template, with where it is. */
function policyDocuments(template: Template): Array<[string, any]> {
  return Object.entries(template.Resources).flatMap(([id, r]) => {
    const p = r.Properties ?? {};
    return [
      ...(p.PolicyDocument ? [[id, p.PolicyDocument] as [string, any]] : []),
      ...(p.AssumeRolePolicyDocument ? [[`${id} (trust)`, p.AssumeRolePolicyDocument] as [string, any]] : []),
      ...((p.Policies ?? []) as Array<{ PolicyDocument: unknown }>).map((q, i) => [`${id} Policies[${i}]`, q.PolicyDocument] as [string, any]),
    ];
  });
}

function iamFindings(template: Template): string[] {
  const found: string[] = [];
  for (const [role, chars] of inlinePolicyCharsByRole(template)) {
    if (chars > ROLE_INLINE_POLICY_CHARS) found.push(`${role}: inline policies ${chars} characters > ${ROLE_INLINE_POLICY_CHARS}`);
  }
  for (const [id, role] of resourcesOf(template, 'AWS::IAM::Role')) {
    const managed = (role.Properties?.ManagedPolicyArns ?? []).length;
    if (managed > ROLE_MANAGED_POLICIES) found.push(`${id}: ${managed} managed policies > ${ROLE_MANAGED_POLICIES}`);
  }
  for (const [where, document] of policyDocuments(template)) {
    for (const statement of [document.Statement].flat()) {
      for (const action of [statement?.Action ?? [], statement?.NotAction ?? []].flat()) {
        if (typeof action !== 'string' || !IAM_ACTION.test(action)) found.push(`${where}: action ${JSON.stringify(action)} is not service:action`);
      }
    }
  }
  return found;
}

const HTTP_API_ROUTES = 300;
const HTTP_API_INTEGRATIONS = 300;
const HTTP_API_INTEGRATION_TIMEOUT_MS = { min: 50, max: 30_000 };
const HTTP_API_ACCESS_LOG_FORMAT_BYTES = 3 * 1024;
const ROUTE_KEY = /^(\$default|(ANY|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*)$/;

function httpApiFindings(template: Template): string[] {
  const found: string[] = [];
  const countByApi = (type: string) => {
    const counts = new Map<string, number>();
    for (const [, r] of resourcesOf(template, type)) {
      const api = referencedId(r.Properties?.ApiId) ?? '?';
      counts.set(api, (counts.get(api) ?? 0) + 1);
    }
    return counts;
  };
  for (const [api, routes] of countByApi('AWS::ApiGatewayV2::Route')) {
    if (routes > HTTP_API_ROUTES) found.push(`${api}: ${routes} routes > ${HTTP_API_ROUTES}`);
  }
  for (const [api, integrations] of countByApi('AWS::ApiGatewayV2::Integration')) {
    if (integrations > HTTP_API_INTEGRATIONS) found.push(`${api}: ${integrations} integrations > ${HTTP_API_INTEGRATIONS}`);
  }
  for (const [id, route] of resourcesOf(template, 'AWS::ApiGatewayV2::Route')) {
    const key = route.Properties?.RouteKey;
    if (typeof key !== 'string' || !ROUTE_KEY.test(key)) found.push(`${id}: route key ${JSON.stringify(key)}`);
  }
  for (const [id, integration] of resourcesOf(template, 'AWS::ApiGatewayV2::Integration')) {
    const timeout = integration.Properties?.TimeoutInMillis;
    if (timeout !== undefined && (timeout < HTTP_API_INTEGRATION_TIMEOUT_MS.min || timeout > HTTP_API_INTEGRATION_TIMEOUT_MS.max)) {
      found.push(`${id}: TimeoutInMillis ${timeout} outside ${HTTP_API_INTEGRATION_TIMEOUT_MS.min}–${HTTP_API_INTEGRATION_TIMEOUT_MS.max}`);
    }
  }
  for (const [id, stage] of resourcesOf(template, 'AWS::ApiGatewayV2::Stage')) {
    const format = stage.Properties?.AccessLogSettings?.Format;
    const bytes = typeof format === 'string' ? Buffer.byteLength(format) : 0;
    if (bytes > HTTP_API_ACCESS_LOG_FORMAT_BYTES) found.push(`${id}: access log format ${bytes} bytes > ${HTTP_API_ACCESS_LOG_FORMAT_BYTES}`);
  }
  return found;
}

/**
 * API Gateway stops waiting for an integration after 30 s and answers 503 while the function
 * runs on: a function behind the API with a longer timeout would keep writing after the client
 * was told it failed. Every function an HTTP API integration invokes times out first.
 */
function integrationTimeoutFindings(template: Template): string[] {
  return resourcesOf(template, 'AWS::ApiGatewayV2::Integration').flatMap(([id, integration]) => {
    const fnId = referencedId(integration.Properties?.IntegrationUri);
    const fn = fnId ? template.Resources[fnId] : undefined;
    if (fn?.Type !== 'AWS::Lambda::Function') return [];
    const limitMs = integration.Properties?.TimeoutInMillis ?? HTTP_API_INTEGRATION_TIMEOUT_MS.max;
    const fnMs = (fn.Properties?.Timeout ?? 3) * 1000;
    return fnMs > limitMs ? [`${id}: ${fnId} times out after ${fnMs} ms, the integration after ${limitMs} ms`] : [];
  });
}

const ALARM_ACTIONS_PER_STATE = 5;

function alarmFindings(template: Template): string[] {
  return resourcesOf(template, 'AWS::CloudWatch::Alarm').flatMap(([id, alarm]) =>
    (['AlarmActions', 'OKActions', 'InsufficientDataActions'] as const)
      .map((key) => [key, (alarm.Properties?.[key] ?? []).length] as const)
      .filter(([, count]) => count > ALARM_ACTIONS_PER_STATE)
      .map(([key, count]) => `${id}: ${count} ${key} > ${ALARM_ACTIONS_PER_STATE}`),
  );
}

const TEMPLATE_BODY_BYTES = 1024 * 1024;

function templateFindings(template: Template): string[] {
  const bytes = Buffer.byteLength(JSON.stringify(template));
  return bytes > TEMPLATE_BODY_BYTES ? [`template ${bytes} bytes > ${TEMPLATE_BODY_BYTES}`] : [];
}

// ---------------------------------------------------------------------------------------------

let template: Template;
beforeAll(() => {
  template = synthesizeStack().toJSON() as Template;
});

function broken(mutate: (t: Template) => void): Template {
  const copy = structuredClone(template);
  mutate(copy);
  return copy;
}

function first(t: Template, type: string, where: (r: Resource) => boolean = () => true): Resource {
  const found = Object.values(t.Resources).find((r) => r.Type === type && where(r));
  if (!found) throw new Error(`no ${type} in the template`);
  return found;
}

const groupFunction = (t: Template) => first(t, 'AWS::Lambda::Function', (r) => r.Properties?.Environment?.Variables?.UNLEASH_URL !== undefined);

describe('deploy-time limits of the template', () => {
  it.each<[string, (t: Template) => string[], (t: Template) => void, RegExp]>([
    ['Lambda: environment variables at most 4 KB in all', lambdaFindings, (t) => {
      groupFunction(t).Properties!.Environment.Variables.BIG = 'x'.repeat(3800);
    }, /environment \d+ bytes > 4096/],
    ['Lambda: no reserved environment key', lambdaFindings, (t) => {
      groupFunction(t).Properties!.Environment.Variables.AWS_REGION = 'eu-west-1';
    }, /AWS_REGION is reserved/],
    ['Lambda: environment keys are letters, digits and underscores, starting with a letter', lambdaFindings, (t) => {
      groupFunction(t).Properties!.Environment.Variables['1-BAD'] = 'x';
    }, /1-BAD is not a valid name/],
    ['Lambda: memory within 128–10,240 MB', lambdaFindings, (t) => {
      groupFunction(t).Properties!.MemorySize = 20_480;
    }, /MemorySize 20480 outside/],
    ['Lambda: /tmp within 512–10,240 MB', lambdaFindings, (t) => {
      groupFunction(t).Properties!.EphemeralStorage = { Size: 20_480 };
    }, /EphemeralStorage 20480 outside/],
    ["IAM: each role's inline policies at most 10,240 characters together", iamFindings, (t) => {
      const policy = first(t, 'AWS::IAM::Policy');
      const table = Object.keys(t.Resources).find((id) => t.Resources[id]!.Type === 'AWS::DynamoDB::Table')!;
      for (let i = 0; i < 30; i++) {
        policy.Properties!.PolicyDocument.Statement.push({ Effect: 'Allow', Action: `dynamodb:GetItem`, Resource: { 'Fn::GetAtt': [table, 'Arn'] } });
      }
    }, /inline policies \d+ characters > 10240/],
    ['IAM: at most 10 managed policies per role', iamFindings, (t) => {
      first(t, 'AWS::IAM::Role').Properties!.ManagedPolicyArns = Array.from({ length: 11 }, (_, i) => `arn:aws:iam::aws:policy/P${i}`);
    }, /11 managed policies > 10/],
    ['IAM: every action is service:action', iamFindings, (t) => {
      first(t, 'AWS::IAM::Policy').Properties!.PolicyDocument.Statement[0].Action = 'dynamodb GetItem';
    }, /action "dynamodb GetItem" is not service:action/],
    ['HTTP API: at most 300 routes', httpApiFindings, (t) => {
      const route = first(t, 'AWS::ApiGatewayV2::Route');
      for (let i = 0; i < 300; i++) t.Resources[`ExtraRoute${i}`] = { ...structuredClone(route), Properties: { ...route.Properties, RouteKey: `GET /extra/${i}` } };
    }, /\d+ routes > 300/],
    ['HTTP API: at most 300 integrations', httpApiFindings, (t) => {
      const integration = first(t, 'AWS::ApiGatewayV2::Integration');
      for (let i = 0; i < 300; i++) t.Resources[`ExtraIntegration${i}`] = structuredClone(integration);
    }, /\d+ integrations > 300/],
    ['HTTP API: route keys are $default or a method and a path', httpApiFindings, (t) => {
      first(t, 'AWS::ApiGatewayV2::Route').Properties!.RouteKey = 'FETCH /x';
    }, /route key "FETCH \/x"/],
    ['HTTP API: integration timeout at most 30 s', httpApiFindings, (t) => {
      first(t, 'AWS::ApiGatewayV2::Integration').Properties!.TimeoutInMillis = 40_000;
    }, /TimeoutInMillis 40000 outside/],
    ['HTTP API: access log format at most 3 KB', httpApiFindings, (t) => {
      const settings = first(t, 'AWS::ApiGatewayV2::Stage').Properties!.AccessLogSettings;
      settings.Format = JSON.stringify(Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`field${i}`, '$context.requestId'])));
    }, /access log format \d+ bytes > 3072/],
    ['HTTP API: every function it invokes times out before the 30 s integration timeout', integrationTimeoutFindings, (t) => {
      groupFunction(t).Properties!.Timeout = 60;
    }, /times out after 60000 ms, the integration after 30000 ms/],
    ['CloudWatch: at most 5 actions per alarm state', alarmFindings, (t) => {
      const alarm = first(t, 'AWS::CloudWatch::Alarm');
      alarm.Properties!.OKActions = Array.from({ length: 6 }, (_, i) => `arn:aws:sns:us-east-1:123456789012:t${i}`);
    }, /6 OKActions > 5/],
    ['CloudFormation: template body at most 1 MB', templateFindings, (t) => {
      t.Description = 'd'.repeat(1024 * 1024);
    }, /template \d+ bytes > 1048576/],
  ])('%s', (_, check, mutate, expected) => {
    expect(check(template)).toEqual([]);
    expect(check(broken(mutate)).join('\n')).toMatch(expected);
  });

  it('renders every reference a checked value makes, so a new one states its longest value', () => {
    expect(() => renderLongest({ Ref: 'Nope' }, template)).toThrow(/no longest value/);
    for (const [, fn] of resourcesOf(template, 'AWS::Lambda::Function')) expect(() => environmentBytes(fn, template)).not.toThrow();
    expect(() => inlinePolicyCharsByRole(template)).not.toThrow();
  });

  it('reports the sizes it measured, far under each limit', () => {
    const environments = resourcesOf(template, 'AWS::Lambda::Function').map(([, fn]) => environmentBytes(fn, template));
    const inline = [...inlinePolicyCharsByRole(template).values()];
    const routes = resourcesOf(template, 'AWS::ApiGatewayV2::Route').length;
    const bytes = Buffer.byteLength(JSON.stringify(template));

    // Printed so the closing note of issue 13 can quote them.
    console.info(
      `deploy limits: largest environment ${Math.max(...environments)} B of 4096; largest role inline policy ` +
        `${Math.max(...inline)} of 10240 characters; ${routes} routes of 300; template ${bytes} B of 1 MB`,
    );
    expect(Math.max(...environments)).toBeLessThan(LAMBDA_ENVIRONMENT_BYTES / 2);
    expect(Math.max(...inline)).toBeLessThan(ROLE_INLINE_POLICY_CHARS / 2);
  });
});
