import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationValidatePlugin } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { sdkFrontDoorFromContext, sdkReservedConcurrencyFromContext } from '../../infra/constructs/sdk-function-url.js';
import { createTogglesApp } from '../../infra/toggles-app.js';
import { resourcesOf, synthesizeStack, testContext, type Resource } from './synth.js';

/**
 * The SDK front door switch (`-c sdkFrontDoor=functionUrl`, infra/constructs/sdk-function-url.ts):
 * API Gateway stays the default and keeps every route; the switch adds a Lambda function URL on
 * the client function and nothing else. cdk-nag runs on every synthesis here (an unacknowledged
 * finding throws), and AWS's template validator checks the switched stack as
 * test/infra/cloudformation-validate.test.ts checks the default one.
 */
const clientFunctionId = (template: Template): string => {
  const [id] = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) =>
    (fn.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.some((t) => t.Key === GROUP_TAG && t.Value === 'client'),
  ) ?? [];
  if (!id) throw new Error('no client function');
  return id;
};

const publicPermissions = (template: Template): Resource[] =>
  resourcesOf(template, 'AWS::Lambda::Permission').map(([, p]) => p).filter((p) => p.Properties.Principal === '*');

describe('the SDK front door', () => {
  let byDefault: Template;
  let functionUrl: Template;

  beforeAll(() => {
    byDefault = synthesizeStack({ sdkFrontDoor: undefined });
    functionUrl = synthesizeStack({ sdkFrontDoor: 'functionUrl' });
  });

  it('is API Gateway by default: no function URL, no public permission, no SdkUrl output', () => {
    expect(resourcesOf(byDefault, 'AWS::Lambda::Url')).toEqual([]);
    expect(publicPermissions(byDefault)).toEqual([]);
    expect(byDefault.toJSON().Outputs.SdkUrl).toBeUndefined();
    expect(byDefault.toJSON().Outputs.ApiUrl).toBeDefined();
  });

  it('with sdkFrontDoor=functionUrl, adds one URL on the client function: auth NONE (the function checks tokens), buffered, no CORS', () => {
    const urls = resourcesOf(functionUrl, 'AWS::Lambda::Url');

    expect(urls).toHaveLength(1);
    const [, url] = urls[0]!;
    expect(url.Properties).toEqual({
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: { 'Fn::GetAtt': [clientFunctionId(functionUrl), 'Arn'] },
    });
  });

  it('lets anyone invoke the client function through its URL only (both permissions Lambda requires), and no other function', () => {
    const client = clientFunctionId(functionUrl);

    expect(publicPermissions(functionUrl).map((p) => p.Properties).sort((a, b) => a.Action.localeCompare(b.Action))).toEqual([
      { Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': [client, 'Arn'] }, InvokedViaFunctionUrl: true, Principal: '*' },
      { Action: 'lambda:InvokeFunctionUrl', FunctionName: { 'Fn::GetAtt': [client, 'Arn'] }, FunctionUrlAuthType: 'NONE', Principal: '*' },
    ]);
  });

  it('names the SDK URL in an output, <function URL>api, and keeps the HTTP API with every route', () => {
    const [urlId] = resourcesOf(functionUrl, 'AWS::Lambda::Url')[0]!;
    const outputs = functionUrl.toJSON().Outputs;

    expect(outputs.SdkUrl.Value).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [urlId, 'FunctionUrl'] }, 'api']] });
    expect(outputs.ApiUrl).toBeDefined();
    expect(resourcesOf(functionUrl, 'AWS::ApiGatewayV2::Route')).toHaveLength(resourcesOf(byDefault, 'AWS::ApiGatewayV2::Route').length);
  });

  it('reserves no concurrency unless asked; sdkReservedConcurrency=<n> reserves n for the client function alone', () => {
    const reserved = (template: Template) =>
      resourcesOf(template, 'AWS::Lambda::Function')
        .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
        .map(([id, fn]) => [id, fn.Properties.ReservedConcurrentExecutions]);
    const withReservation = synthesizeStack({ sdkFrontDoor: 'functionUrl', sdkReservedConcurrency: '150' });

    expect(reserved(functionUrl)).toEqual([]);
    expect(reserved(withReservation)).toEqual([[clientFunctionId(withReservation), 150]]);
  });

  it('refuses context values it does not know, naming the key', () => {
    expect(sdkFrontDoorFromContext(undefined)).toBe('apiGateway');
    expect(sdkFrontDoorFromContext('apiGateway')).toBe('apiGateway');
    expect(() => sdkFrontDoorFromContext('functionURL')).toThrow(/sdkFrontDoor must be apiGateway or functionUrl/);
    expect(sdkReservedConcurrencyFromContext('20')).toBe(20);
    for (const bad of ['0', '-1', '1.5', 'many']) expect(() => sdkReservedConcurrencyFromContext(bad)).toThrow(/sdkReservedConcurrency must be a positive whole number/);
    expect(() => synthesizeStack({ sdkReservedConcurrency: 10 })).toThrow(/applies to sdkFrontDoor=functionUrl only/);
  });

  describe('CloudFormation Validate on the switched stack', () => {
    let dir: string;
    let check: (region: string) => string[];
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'toggles-sdk-url-'));
      const plugin = new CloudFormationValidatePlugin();
      // Without the admin UI, whose CloudFront resources China and GovCloud lack (cloudformation-validate.test.ts).
      const { app, stack } = createTogglesApp({ context: testContext({ sdkFrontDoor: 'functionUrl', sdkReservedConcurrency: 150, adminUi: false }) });
      const templatePath = join(dir, 'template.json');
      writeFileSync(templatePath, JSON.stringify(Template.fromStack(stack).toJSON()));
      check = (region) =>
        plugin
          .validate({ appConstruct: app, templatePaths: [templatePath], stackTemplates: [{ stackConstructPath: 'ServerlessToggles', templatePath, region, accountId: '123456789012' }] })
          .violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} ${r.resourceLogicalId ?? ''}: ${v.description}`));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each(['us-east-1', 'eu-west-1', 'cn-north-1'])('finds nothing in it deployed to %s', (region) => {
      expect(check(region)).toEqual([]);
    });

    // Lambda has no function URLs in some Regions (Lambda guide, "Invoking Lambda function URLs"):
    // there the switch cannot deploy, and the default front door must be kept.
    it.each(['us-gov-west-1', 'ap-southeast-5', 'eu-central-2'])('finds only the function URL missing in %s, where Lambda has none', (region) => {
      expect(check(region)).toEqual([expect.stringMatching(/^error F3006 SdkFrontDoorUrl\w+: .*'AWS::Lambda::Url' does not exist in/)]);
    });
  });
});
