import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { referencedId, resourcesOf, serviceFunctions, synthesizeStack } from './synth.js';

/** An admin token with its secret part: `*:*.` followed by something secret-like. */
const PLAIN_ADMIN_TOKEN = /\*:\*\.[A-Za-z0-9_-]{8,}/;

let template: Template;
beforeAll(() => {
  template = synthesizeStack();
});

/** The admin token's secret; the stack also holds the key for sealed secrets (ADR 6). */
function secretId(): string {
  const secrets = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
    String(secret.Properties.Description).includes('admin API token'),
  );
  expect(secrets).toHaveLength(1);
  return secrets[0]![0];
}

function bootstrapResource() {
  const resources = resourcesOf(template, 'Custom::BootstrapAdminToken');
  expect(resources).toHaveLength(1);
  return resources[0]![1];
}

describe('bootstrap admin token', () => {
  it('lets CloudFormation generate the secret, so no value is written in the template', () => {
    const [, secret] = resourcesOf(template, 'AWS::SecretsManager::Secret').find(([id]) => id === secretId())!;
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true, IncludeSpace: false });
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
  });

  it('puts no token in any function environment', () => {
    for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
      const variables: Record<string, unknown> = fn.Properties.Environment?.Variables ?? {};
      expect(Object.keys(variables), id).not.toContain('INIT_ADMIN_API_TOKENS');
      expect(Object.keys(variables), id).not.toContain('INIT_CLIENT_API_TOKENS');
      expect(JSON.stringify(variables), id).not.toMatch(/\*:\*\./);
      expect(JSON.stringify(variables), id).not.toContain('resolve:secretsmanager');
    }
  });

  it('puts no secret of any kind in a function environment: no token of any scope, no key material', () => {
    const ANY_TOKEN = /(\*|\[\]|[\w-]+):(\*|[\w-]+)\.[A-Za-z0-9]{16,}/;
    for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
      const variables: Record<string, unknown> = fn.Properties.Environment?.Variables ?? {};
      // Secrets travel by ARN (read at run time); the key material itself never does.
      const named = Object.keys(variables).filter((name) => /SECRET|TOKEN|PASSWORD/.test(name) && !name.endsWith('_ARN'));
      expect(named, id).toEqual([]);
      expect(JSON.stringify(variables), id).not.toMatch(ANY_TOKEN);
    }
  });

  it('holds no plain admin token or secret reference anywhere in the template', () => {
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toMatch(PLAIN_ADMIN_TOKEN);
    // A dynamic reference would let CloudFormation copy the value into a resource property. The
    // one there is: the admin UI distribution's origin secret, which CloudFront itself must send.
    const references = [...json.matchAll(/\{\{resolve:secretsmanager:"?,?(\{[^}]*\})/g)].map((match) => match[1]);
    const originSecret = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, s]) => /distribution/i.test(String(s.Properties.Description)));
    expect(references).toEqual(originSecret.map(([id]) => JSON.stringify({ Ref: id })));
    expect(template.toJSON().Parameters ?? {}).not.toHaveProperty('AdminToken');
  });

  it('gives the bootstrap function the secret by ARN, read with the SDK: no layer, so no region map', () => {
    const serviceToken = bootstrapResource().Properties.ServiceToken;
    expect(serviceToken['Fn::GetAtt'][1]).toBe('Arn');
    const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === referencedId(serviceToken))!;
    expect(fn.Properties.Environment.Variables.ADMIN_TOKEN_SECRET_ARN).toEqual({ Ref: secretId() });
    // The Parameters and Secrets extension came from a map of 21 Regions (issue 13, finding 2).
    for (const [id, each] of serviceFunctions(template)) expect(each.Properties.Layers, id).toBeUndefined();
  });

  it('is a custom resource invoking the bootstrap function directly, keyed on the secret and the table', () => {
    const resource = bootstrapResource();
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    expect(resource.Properties.SecretArn).toEqual({ Ref: secretId() });
    expect(resource.Properties.TableName).toEqual({ Ref: tableId });
    expect(resource.Properties.SecretGeneration).toMatch(/^[0-9a-f]{16}$/);
    // Protocol 2: the physical id names the stored token, so a rotation removes the previous
    // one (issue 13, finding 5); changing it gives existing stacks the Update that moves them.
    expect(resource.Properties.Protocol).toBe('2');
    // No Provider framework, which would add its own framework function (and a state machine).
    expect(referencedId(resource.Properties.ServiceToken)).toMatch(/^BootstrapAdminTokenApply/);
    expect(resourcesOf(template, 'AWS::StepFunctions::StateMachine')).toHaveLength(0);
  });

  it('runs after every group function is updated, and again when a version brings a data migration', () => {
    const [id] = resourcesOf(template, 'Custom::BootstrapAdminToken')[0]!;
    const groupFunctions = resourcesOf(template, 'AWS::Lambda::Function')
      .filter(([, fn]) => (fn.Properties.Tags as Array<{ Key: string }> | undefined)?.some((tag) => tag.Key === 'toggles:endpoint-group'))
      .map(([functionId]) => functionId);
    const dependsOn = (template.toJSON().Resources[id].DependsOn ?? []) as string[];

    // The migration's 30 s settling time then counts from when the previous code stops (ADR 17).
    expect(groupFunctions.length).toBeGreaterThan(5);
    expect(groupFunctions.filter((functionId) => !dependsOn.includes(functionId))).toEqual([]);
    expect(bootstrapResource().Properties.DataMigrations).toBe('project-copies:groups-revision:');
    expect(resourcesOf(synthesizeStack({ dataMigrationRun: 'again' }), 'Custom::BootstrapAdminToken')[0]![1].Properties.DataMigrations)
      .toBe('project-copies:groups-revision:again');
  });

  it('makes CloudFormation give up on an unanswered bootstrap within minutes, not the default hour', () => {
    const resource = bootstrapResource();

    // A function that crashes before answering would otherwise hold the stack for an hour.
    expect(Number(resource.Properties.ServiceTimeout)).toBeGreaterThanOrEqual(60);
    expect(Number(resource.Properties.ServiceTimeout)).toBeLessThanOrEqual(300);
  });

  it('grants the bootstrap function reading this secret and the first admin password\'s, and writing the table', () => {
    const serviceToken = bootstrapResource().Properties.ServiceToken;
    const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === referencedId(serviceToken))!;
    const roleId = referencedId(fn.Properties.Role);
    const statements = resourcesOf(template, 'AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as unknown[]).some((role) => referencedId(role) === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>);
    const secretStatements = statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('secretsmanager:')));
    expect(secretStatements).toHaveLength(1);
    const passwordSecrets = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
      String(secret.Properties.Description).includes('First admin user password'));
    expect(passwordSecrets).toHaveLength(1);
    expect(secretStatements[0]!.Resource).toEqual(expect.arrayContaining([{ Ref: secretId() }, { Ref: passwordSecrets[0]![0] }]));
    expect(secretStatements[0]!.Resource).toHaveLength(2);
    const tableActions = statements.flatMap((s) => [s.Action].flat() as string[]).filter((a) => a.startsWith('dynamodb:'));
    expect(tableActions).toContain('dynamodb:PutItem');
    // Removing the token of a replaced secret (a transaction's Delete needs DeleteItem).
    expect(tableActions).toContain('dynamodb:DeleteItem');
  });

  it('outputs the secret ARN and a command that prints the whole admin token', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'AdminTokenSecretArn', 'ReadAdminToken']));
    expect(outputs.AdminTokenSecretArn!.Value).toEqual({ Ref: secretId() });
    const command = JSON.stringify(outputs.ReadAdminToken!.Value);
    expect(command).toContain('*:*.$(aws secretsmanager get-secret-value');
    expect(command).toContain('--query SecretString --output text');
    expect(command).toContain(JSON.stringify({ Ref: secretId() }));
  });
});
