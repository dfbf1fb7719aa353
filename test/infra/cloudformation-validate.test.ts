import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, CloudFormationValidatePlugin, Duration, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { createTogglesApp } from '../../infra/toggles-app.js';
import { cdkJsonContext, testContext } from './synth.js';

/**
 * AWS's own template validator, run on the synthesized stack (issue 13, deliverable 4).
 *
 * aws-cdk-lib ships it: `@aws/cloudformation-validate` (a WebAssembly build of cfn-lint's rules
 * with the CloudFormation resource provider schemas bundled, no network, no binary to download),
 * behind the public `CloudFormationValidatePlugin`. `cdk synth` and `cdk deploy` run it, and
 * cdk.json's `@aws-cdk/core:validateAgainstDefaultRules` makes its errors fail them. The other
 * template tests switch it off (CDK_VALIDATION=false, test/infra/synth.ts) because it adds seconds
 * to each synthesis; this file runs it once on the stack, so `npm test` fails where `cdk deploy`
 * would, and holds the stack to no warning either.
 *
 * What it checks that the other template tests do not: every resource type and property against
 * CloudFormation's schemas (names, types, enums, patterns, lengths, item counts), Ref/GetAtt
 * targets and attributes, dependency cycles, IAM policy grammar (Effect, ARN shape), the 500
 * resource and 200 output limits, schedule expressions, deprecated runtimes.
 */

type Report = ReturnType<CloudFormationValidatePlugin['validate']>;

let dir: string;
let plugin: CloudFormationValidatePlugin;
let stackApp: App;
let stackTemplate: Record<string, any>;
let stackReport: Report;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toggles-cfn-validate-'));
  plugin = new CloudFormationValidatePlugin();
  const { app, stack } = createTogglesApp({ context: testContext() });
  stackApp = app;
  stackTemplate = Template.fromStack(stack).toJSON();
  // The first validation compiles the engine and its rules (about a second and a half on an
  // idle core); the tests after it take tens of milliseconds each.
  stackReport = validate(stackTemplate);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let written = 0;
/** Validates a template as `cdk synth` does, optionally as deployed to a Region. */
function validate(template: object, region?: string): Report {
  const templatePath = join(dir, `template-${written++}.json`);
  writeFileSync(templatePath, JSON.stringify(template));
  return plugin.validate({
    appConstruct: stackApp,
    templatePaths: [templatePath],
    stackTemplates: [{ stackConstructPath: 'ServerlessToggles', templatePath, region, accountId: region ? '123456789012' : undefined }],
  });
}

/** `F3002 GroupsgroupsFunction…: Timeoutt: Additional properties…` for each finding, errors and warnings alike. */
function findings(report: Report): string[] {
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.severity} ${v.ruleName} ${r.resourceLogicalId ?? ''}: ${v.description}`),
  );
}

/** The template with `mutate` applied to a deep copy. */
function broken(mutate: (resources: Record<string, any>, template: Record<string, any>) => void): Record<string, any> {
  const copy = structuredClone(stackTemplate);
  mutate(copy.Resources, copy);
  return copy;
}

function firstOf(resources: Record<string, any>, type: string): any {
  const found = Object.values(resources).find((r: any) => r.Type === type);
  if (!found) throw new Error(`no ${type} in the template`);
  return found;
}

describe('CloudFormation Validate (the validator cdk synth runs)', () => {
  it('finds no error and no warning in the stack', () => {
    expect(findings(stackReport)).toEqual([]);
    expect(stackReport.success).toBe(true);
  });

  it.each(['us-east-1', 'ap-southeast-5', 'eu-central-2'])(
    'finds nothing in the stack deployed to %s',
    (region) => {
      expect(findings(validate(stackTemplate, region))).toEqual([]);
    },
  );

  // China has no CloudFront Functions or Origin Access Control, GovCloud no CloudFront: the admin UI stays out there.
  it.each(['cn-north-1', 'us-gov-west-1'])('finds nothing in the stack deployed to %s with -c adminUi=false', (region) => {
    const { stack } = createTogglesApp({ context: testContext({ adminUi: false }) });

    expect(findings(validate(Template.fromStack(stack).toJSON(), region))).toEqual([]);
  });

  // Each case breaks the stack's own template the way a construct change could, and is a
  // failure CloudFormation or the service would answer at deploy time.
  it.each<[string, RegExp, (resources: Record<string, any>, template: Record<string, any>) => void]>([
    ['a property CloudFormation does not know', /error F3002 .*Timeoutt/, (r) => {
      firstOf(r, 'AWS::Lambda::Function').Properties.Timeoutt = 3;
    }],
    ['a resource type that does not exist', /error F3006 .*AWS::SNS::Topik/, (r) => {
      firstOf(r, 'AWS::SNS::Topic').Type = 'AWS::SNS::Topik';
    }],
    ['a Lambda timeout over 15 minutes', /error E3717 .*Timeout: 1000 exceeds maximum 900/, (r) => {
      firstOf(r, 'AWS::Lambda::Function').Properties.Timeout = 1000;
    }],
    ['a GetAtt of an attribute the resource does not have', /error E9004 .*'Nope' is not one of/, (r) => {
      firstOf(r, 'AWS::Lambda::Function').Properties.Environment.Variables.X = { 'Fn::GetAtt': [tableId(r), 'Nope'] };
    }],
    ['an IAM statement with an Effect IAM refuses', /error E3510 .*'allow' is not one of \['Allow', 'Deny'\]/, (r) => {
      firstOf(r, 'AWS::IAM::Policy').Properties.PolicyDocument.Statement[0].Effect = 'allow';
    }],
    ['an IAM Resource that is not an ARN', /error E3510 .*'table\/foo' does not match/, (r) => {
      firstOf(r, 'AWS::IAM::Policy').Properties.PolicyDocument.Statement[0].Resource = 'table/foo';
    }],
    ['a table key with no attribute definition', /error E3039 .*missing definitions: \[zz\]/, (r) => {
      firstOf(r, 'AWS::DynamoDB::Table').Properties.KeySchema[0].AttributeName = 'zz';
    }],
    ['a log group name over 512 characters', /error F3033 .*exceeds maximum 512/, (r) => {
      firstOf(r, 'AWS::Logs::LogGroup').Properties.LogGroupName = 'l'.repeat(600);
    }],
    ['a dependency cycle', /error F3004 .*Circular/, (r) => {
      const api = Object.keys(r).find((id) => r[id].Type === 'AWS::ApiGatewayV2::Api')!;
      const stage = Object.keys(r).find((id) => r[id].Type === 'AWS::ApiGatewayV2::Stage')!;
      r[api].DependsOn = [stage];
    }],
    ['more than 500 resources', /error F0007 .*maximum is 500/, (r) => {
      for (let i = 0; i < 400; i++) r[`Extra${i}`] = { Type: 'AWS::SNS::Topic', Properties: {} };
    }],
    ['a deprecated runtime (a warning, failed here all the same)', /warning W2531 .*nodejs16\.x/, (r) => {
      firstOf(r, 'AWS::Lambda::Function').Properties.Runtime = 'nodejs16.x';
    }],
  ])('fails on %s', (_, expected, mutate) => {
    const report = validate(broken(mutate));

    expect(findings(report).join('\n')).toMatch(expected);
  });

  it('fails `cdk synth` itself with the repository\'s cdk.json, on a stack synthesized with a bad property', () => {
    const previous = process.env.CDK_VALIDATION;
    process.env.CDK_VALIDATION = 'true';
    const outdir = mkdtempSync(join(tmpdir(), 'toggles-cfn-synth-'));
    try {
      expect(cdkJsonContext['@aws-cdk/core:validateAgainstDefaultRules']).toBe(true);
      const app = new App({ outdir, context: { ...cdkJsonContext } });
      const stack = new Stack(app, 'Broken');
      const fn = new lambda.Function(stack, 'Fn', {
        runtime: lambda.Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: lambda.Code.fromInline('exports.handler = async () => 1;'),
        timeout: Duration.seconds(10),
      });
      (fn.node.defaultChild as lambda.CfnFunction).addPropertyOverride('Timeoutt', 3);

      expect(() => app.synth()).toThrow(/F3002[\s\S]*Timeoutt|Timeoutt[\s\S]*F3002/);
    } finally {
      if (previous === undefined) delete process.env.CDK_VALIDATION;
      else process.env.CDK_VALIDATION = previous;
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 120_000); // a second engine: synthesis builds its own
});

function tableId(resources: Record<string, any>): string {
  return Object.keys(resources).find((id) => resources[id].Type === 'AWS::DynamoDB::Table')!;
}
