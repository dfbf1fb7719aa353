import type { Template } from 'aws-cdk-lib/assertions';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeStack } from './synth.js';

/**
 * The stack deploys in every commercial Region and names its ARNs by partition (issue 13,
 * finding 2). `cdk deploy` synthesizes it environment-agnostic (infra/app.ts): whatever the
 * template looks up by `AWS::Region` is resolved by CloudFormation at deploy time, so a region
 * map that lacks the target Region passes `cdk synth` and fails the deployment. A stack pinned
 * to a Region instead resolves those look-ups while synthesizing, and fails there.
 */

/**
 * The commercial (`aws` partition) Regions AWS lists on "AWS Region billing codes"
 * (docs.aws.amazon.com/global-infrastructure/latest/regions/aws-region-billing-codes.html),
 * as of 2026-11. CDK's own Region list (aws-cdk-lib/region-info) is added below, so a Region
 * either side knows is checked.
 */
const DOCUMENTED_COMMERCIAL_REGIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'ca-west-1', 'mx-central-1',
  'af-south-1',
  'ap-east-1', 'ap-east-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3', 'ap-south-1', 'ap-south-2',
  'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4', 'ap-southeast-5', 'ap-southeast-6', 'ap-southeast-7',
  'eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3',
  'il-central-1', 'me-central-1', 'me-south-1',
  'sa-east-1',
];

const COMMERCIAL_REGIONS = [
  ...new Set([...DOCUMENTED_COMMERCIAL_REGIONS, ...RegionInfo.regions.filter((r) => r.partition === 'aws').map((r) => r.name)]),
].sort();

/** Regions the stack is synthesized for explicitly: new commercial ones, China and GovCloud. */
const PINNED: Array<{ region: string; partition: string }> = [
  { region: 'us-east-1', partition: 'aws' },
  { region: 'ap-southeast-5', partition: 'aws' },
  { region: 'eu-central-2', partition: 'aws' },
  { region: 'ap-northeast-3', partition: 'aws' },
  { region: 'mx-central-1', partition: 'aws' },
  { region: 'cn-north-1', partition: 'aws-cn' },
  { region: 'us-gov-west-1', partition: 'aws-us-gov' },
];

/*
 * China (aws-cn) and GovCloud (aws-us-gov): the template synthesizes for both, names their
 * partitions, and needs no per-Region table (the secrets are read with the SDK, which resolves
 * each partition's endpoint). What this repository cannot check without an account there:
 * - Service features. AWS's GovCloud Lambda page ("How AWS Lambda differs for AWS GovCloud
 *   (US)", docs.aws.amazon.com/govcloud-us/latest/UserGuide/govcloud-lambda.html) lists JSON
 *   log formatting as not available; every function here sets LoggingConfig (JSON, its own log
 *   group, infra/constructs/service-function.ts), so a GovCloud deploy must drop those settings
 *   first and grant the functions their default /aws/lambda/<name> log groups. For China, check
 *   "Getting Started with AWS in China" for HTTP APIs, arm64 Lambda and the nodejs22.x runtime.
 * - Accounts and credentials of that partition, and `cdk bootstrap` in the target Region.
 */

const ACCOUNT = '123456789012';

type Json = unknown;

/** Every `Fn::FindInMap` in the template, with the path where it sits. */
function findInMaps(node: Json, path = ''): Array<{ path: string; args: Json[] }> {
  if (Array.isArray(node)) return node.flatMap((child, i) => findInMaps(child, `${path}[${i}]`));
  if (node && typeof node === 'object') {
    return Object.entries(node as Record<string, Json>).flatMap(([key, child]) =>
      key === 'Fn::FindInMap' ? [{ path, args: child as Json[] }, ...findInMaps(child, path)] : findInMaps(child, `${path}.${key}`),
    );
  }
  return [];
}

/** Every literal partition an ARN in the template names (`arn:<partition>:`), with its path. */
function literalPartitions(node: Json, path = ''): Array<{ path: string; partition: string }> {
  if (typeof node === 'string') return [...node.matchAll(/\barn:([a-z][a-z0-9-]*):/g)].map((m) => ({ path, partition: m[1]! }));
  if (Array.isArray(node)) return node.flatMap((child, i) => literalPartitions(child, `${path}[${i}]`));
  if (node && typeof node === 'object') {
    return Object.entries(node as Record<string, Json>).flatMap(([key, child]) => literalPartitions(child, `${path}.${key}`));
  }
  return [];
}

function mappings(template: Template): Record<string, Record<string, Record<string, Json>>> {
  return (template.toJSON().Mappings ?? {}) as Record<string, Record<string, Record<string, Json>>>;
}

describe('regions and partitions', () => {
  it('knows the Regions the issue names as commercial', () => {
    expect(COMMERCIAL_REGIONS).toEqual(expect.arrayContaining(['ap-southeast-5', 'eu-central-2', 'ap-northeast-3', 'mx-central-1']));
    expect(COMMERCIAL_REGIONS.length).toBeGreaterThanOrEqual(DOCUMENTED_COMMERCIAL_REGIONS.length);
  });

  describe('the environment-agnostic stack (what cdk deploy synthesizes)', () => {
    let template: Template;
    beforeAll(() => {
      template = synthesizeStack();
    });

    it('resolves every look-up by Region in every commercial Region', () => {
      const maps = mappings(template);
      const missing: string[] = [];
      for (const { path, args } of findInMaps(template.toJSON())) {
        const [mapName, topKey] = args;
        const map = maps[String(mapName)] ?? {};
        if (typeof topKey === 'string') {
          if (!(topKey in map)) missing.push(`${path}: ${String(mapName)} has no ${topKey}`);
          continue;
        }
        // A key the template computes: only AWS::Region is one this stack could depend on.
        expect(topKey, path).toEqual({ Ref: 'AWS::Region' });
        const lacking = COMMERCIAL_REGIONS.filter((region) => !(region in map));
        if (lacking.length > 0) missing.push(`${path}: ${String(mapName)} lacks ${lacking.join(', ')}`);
      }
      expect(missing).toEqual([]);
    });

    it('has no region map that misses a commercial Region', () => {
      for (const [name, map] of Object.entries(mappings(template))) {
        const keys = Object.keys(map);
        if (!keys.some((key) => /^[a-z]{2}(-[a-z]+)+-\d$/.test(key))) continue;
        expect(COMMERCIAL_REGIONS.filter((region) => !keys.includes(region)), name).toEqual([]);
      }
    });

    it('names no partition literally: every ARN it builds uses AWS::Partition', () => {
      expect(literalPartitions(template.toJSON())).toEqual([]);
    });
  });

  describe.each(PINNED)('pinned to $region', ({ region, partition }) => {
    let template: Template;
    beforeAll(() => {
      // Synthesis itself fails for a Region a CDK region fact does not cover.
      template = synthesizeStack({}, { env: { account: ACCOUNT, region } });
    });

    it(`names only the ${partition} partition in its ARNs`, () => {
      const wrong = literalPartitions(template.toJSON()).filter((found) => found.partition !== partition);
      expect(wrong).toEqual([]);
    });

    it('resolves every look-up by Region', () => {
      const maps = mappings(template);
      for (const { path, args } of findInMaps(template.toJSON())) {
        const [mapName, topKey] = args;
        const key = typeof topKey === 'string' ? topKey : JSON.stringify(topKey) === '{"Ref":"AWS::Region"}' ? region : undefined;
        expect(key, path).toBeDefined();
        expect(Object.keys(maps[String(mapName)] ?? {}), path).toContain(key);
      }
    });
  });
});
