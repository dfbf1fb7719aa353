import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { createTogglesApp, type TogglesAppOptions } from '../../infra/toggles-app.js';

// The built-in CloudFormation rule engine adds seconds per synthesis; cdk-nag still runs.
process.env.CDK_VALIDATION ??= 'false';

/** The feature flags of `cdk.json`, so tests synthesize what `cdk synth` does. */
export const cdkJsonContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

/** `cdk synth` without esbuild: the template is the same, only asset hashes are placeholders. */
export function testContext(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], ...deployContext, ...extra };
}

/**
 * TOGGLES_TEST_CONTEXT='{"sdkFrontDoor":"functionUrl"}' runs the template tests on the stack as
 * `cdk deploy -c …` with that context would deploy it (the options' other settings); unset, the defaults.
 */
const deployContext: Record<string, unknown> = JSON.parse(process.env.TOGGLES_TEST_CONTEXT || '{}');

export function synthesizeStack(extra: Record<string, unknown> = {}, options: TogglesAppOptions = {}): Template {
  const { stack } = createTogglesApp({ context: testContext(extra) }, options);
  return Template.fromStack(stack);
}

export type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] } & Record<string, any>;

export function resourcesOf(template: Template, type: string): Array<[string, Resource]> {
  return Object.entries(template.findResources(type) as Record<string, Resource>);
}

/**
 * `{ "Fn::GetAtt": [id, "Arn"] }` or `{ Ref: id }` → id; a table's indexes
 * (`{ "Fn::Join": ["", [<table Arn>, "/index/*"]] }`) → the table's id.
 */
export function referencedId(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.Ref === 'string') return v.Ref;
    const getAtt = v['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
    const join = v['Fn::Join'];
    if (Array.isArray(join) && Array.isArray(join[1]) && join[1].length === 2 && join[1][1] === '/index/*') return referencedId(join[1][0]);
  }
  return undefined;
}

/**
 * The stack's own functions: all but CDK's bucket deployment function, which runs only while
 * CloudFormation copies the admin UI into its bucket (infra/constructs/admin-ui.ts; a failure
 * fails the deployment) and carries CDK's AWS CLI layer.
 */
export function serviceFunctions(template: Template): Array<[string, Resource]> {
  return resourcesOf(template, 'AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'));
}
