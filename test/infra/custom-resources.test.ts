import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminUi } from '../../infra/constructs/admin-ui.js';
import { synthesizeStack, type Resource } from './synth.js';

/** Every custom resource of a template: CDK's `Custom::…` types and CloudFormation's generic one. */
function customResources(template: Template): Array<[string, Resource]> {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  return Object.entries(resources).filter(([, resource]) => resource.Type.startsWith('Custom::') || resource.Type === 'AWS::CloudFormation::CustomResource');
}

/** CloudFormation's own wait is an hour; a custom resource with a ServiceTimeout gives up within it (1 to 3,600 s). */
function expectServiceTimeouts(template: Template): void {
  const found = customResources(template);
  for (const [id, resource] of found) {
    expect(resource.Properties.ServiceTimeout, id).toBeDefined();
    expect(Number(resource.Properties.ServiceTimeout), id).toBeGreaterThanOrEqual(60);
    expect(Number(resource.Properties.ServiceTimeout), id).toBeLessThanOrEqual(900);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'toggles-custom-resources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('custom resources', () => {
  it('each have a ServiceTimeout in the stack, so a handler that dies before answering holds a deployment minutes, not an hour', () => {
    const template = synthesizeStack();

    expect(customResources(template).map(([, resource]) => resource.Type)).toEqual(expect.arrayContaining(['Custom::BootstrapAdminToken', 'Custom::CDKBucketDeployment']));
    expectServiceTimeouts(template);
  });

  it('include both of the admin UI\'s bucket deployments (its static assets and its pages), each with a ServiceTimeout', () => {
    const buildDir = join(dir, 'build');
    mkdirSync(join(buildDir, 'static'), { recursive: true });
    writeFileSync(join(buildDir, 'index.html'), '<script src="/static/app.js"></script>');
    writeFileSync(join(buildDir, 'static', 'app.js'), 'console.log(1)');
    const stack = new Stack(new App(), 'UiOnly');
    new AdminUi(stack, 'AdminUi', { api: new HttpApi(stack, 'Api'), ui: { buildDir, licenceFiles: {} } });
    const template = Template.fromStack(stack);

    expect(customResources(template).filter(([, resource]) => resource.Type === 'Custom::CDKBucketDeployment')).toHaveLength(2);
    expectServiceTimeouts(template);
  });
});
