import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { referencedId, resourcesOf, synthesizeStack, type Resource } from './synth.js';
import { GROUPS } from '../../lib/http/route.js';

/**
 * Lambda stores every `AWS::Lambda::Permission` of a function as one statement of the
 * function's resource policy, and refuses the deployment (PolicyLengthExceededException) once
 * that policy passes 20 KB. We keep each function under half of it, so routes can grow.
 */
const LAMBDA_POLICY_LIMIT_BYTES = 20 * 1024;
const OUR_CEILING_BYTES = 10 * 1024;

/** The longest values the template's references can take in an account. */
const LONGEST: Record<string, string> = {
  'AWS::Partition': 'aws-iso-b',
  'AWS::Region': 'ap-southeast-5',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com.cn',
};
const LONGEST_API_ID = 'a'.repeat(10);
const LONGEST_FUNCTION_ARN = `arn:aws-iso-b:lambda:ap-southeast-5:123456789012:function:${'f'.repeat(64)}`;
/** CloudFormation names a permission's statement after the stack and the resource, plus a suffix. */
const LONGEST_SID = 's'.repeat(128);

/** A CloudFormation value rendered with the longest value each reference can take. */
function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, unknown>;
  if (typeof v.Ref === 'string') return LONGEST[v.Ref] ?? LONGEST_API_ID;
  if (Array.isArray(v['Fn::GetAtt'])) return LONGEST_FUNCTION_ARN;
  const join = v['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) return join[1].map(render).join(join[0]);
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

/** The statement Lambda keeps for one permission, as its GetPolicy answer shows it. */
function statementOf(permission: Resource): object {
  const { Action, Principal, SourceArn, SourceAccount } = permission.Properties;
  return {
    Sid: LONGEST_SID,
    Effect: 'Allow',
    Principal: { Service: Principal },
    Action,
    Resource: LONGEST_FUNCTION_ARN,
    ...(SourceArn || SourceAccount
      ? { Condition: { ...(SourceArn ? { ArnLike: { 'AWS:SourceArn': render(SourceArn) } } : {}), ...(SourceAccount ? { StringEquals: { 'AWS:SourceAccount': render(SourceAccount) } } : {}) } }
      : {}),
  };
}

/** Bytes of each function's resource policy, by the function's logical id. */
function policyBytesByFunction(template: Template): Map<string, number> {
  const statements = new Map<string, object[]>();
  for (const [, permission] of resourcesOf(template, 'AWS::Lambda::Permission')) {
    const target = referencedId(permission.Properties.FunctionName) ?? String(permission.Properties.FunctionName);
    statements.set(target, [...(statements.get(target) ?? []), statementOf(permission)]);
  }
  return new Map(
    [...statements].map(([fn, list]) => [fn, Buffer.byteLength(JSON.stringify({ Version: '2012-10-17', Id: 'default', Statement: list }))]),
  );
}

let template: Template;
beforeAll(() => {
  template = synthesizeStack();
});

describe('the resource policy of each function', () => {
  it(`stays under ${OUR_CEILING_BYTES / 1024} KB, half of Lambda's ${LAMBDA_POLICY_LIMIT_BYTES / 1024} KB limit, at the longest ARNs an account can have`, () => {
    const sizes = policyBytesByFunction(template);

    console.log(`resource policy bytes: largest ${Math.max(...sizes.values())} of ${LAMBDA_POLICY_LIMIT_BYTES}`);
    const tooLarge = [...sizes].filter(([, bytes]) => bytes >= OUR_CEILING_BYTES);

    expect(sizes.size).toBeGreaterThan(0);
    expect(tooLarge).toEqual([]);
  });

  it('lets API Gateway invoke each function through one permission, whatever the number of its routes', () => {
    const permissionsPerFunction = new Map<string, number>();
    for (const [, permission] of resourcesOf(template, 'AWS::Lambda::Permission')) {
      if (permission.Properties.Principal !== 'apigateway.amazonaws.com') continue;
      const target = referencedId(permission.Properties.FunctionName) as string;
      permissionsPerFunction.set(target, (permissionsPerFunction.get(target) ?? 0) + 1);
    }

    expect([...permissionsPerFunction.values()].every((count) => count === 1)).toBe(true);
    expect(permissionsPerFunction.size).toBe(GROUPS.length);
  });
});

/**
 * CloudFormation refuses a stack of more than 500 resources. Routes are most of ours (each adds
 * an API route and its integration's share); the browser and Frontend API issues add about 30,
 * so the stack keeps a fifth of the limit free.
 */
const CLOUDFORMATION_RESOURCE_LIMIT = 500;
const RESOURCE_CEILING = 400;

describe('the stack', () => {
  it(`has at most ${RESOURCE_CEILING} resources, headroom under CloudFormation's ${CLOUDFORMATION_RESOURCE_LIMIT}`, () => {
    const count = Object.keys(template.toJSON().Resources ?? {}).length;

    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(RESOURCE_CEILING);
  });
});
