import { Tags } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { GROUPS, SDK_GROUPS, type Group } from '../../lib/http/route.js';
import { SWAGGER_UI_BUNDLE_DIR, SWAGGER_UI_FILES, SWAGGER_UI_PACKAGE } from '../../lib/docs/swagger-ui.js';
import { GROUP_TABLE_ACCESS } from '../table-access.js';
import { grantTableAccess } from './table-grants.js';
import { bundleFor } from '../bundling.js';
import { ServiceFunction, type BundledFile } from './service-function.js';

/** Marks each endpoint group's function, for people in the console and for the stack tests. */
export const GROUP_TAG = 'toggles:endpoint-group';

export { SDK_USAGE_PARTITIONS } from '../table-access.js';

/**
 * Files a group's function serves from its own bundle: Swagger UI's page needs two files of
 * swagger-ui-dist (1.9 MB), and only the instance function, which serves /docs, carries them.
 */
export const GROUP_BUNDLED_FILES: Partial<Record<Group, readonly BundledFile[]>> = {
  instance: Object.values(SWAGGER_UI_FILES).map(({ file }) => ({
    from: `node_modules/${SWAGGER_UI_PACKAGE}/${file}`,
    to: `${SWAGGER_UI_BUNDLE_DIR}/${file}`,
  })),
};

/** Only the access function (the OIDC settings) and the instance function (integrations' sensitive parameters) seal secrets; no other function can read the key. */
const KEY_GROUPS: ReadonlySet<Group> = new Set<Group>(['access', 'instance']);

/**
 * Only the access function counts login failures by address, so only it reads the admin UI
 * distribution's origin secret; the others take API Gateway's source address as it is.
 */
const ORIGIN_SECRET_GROUPS: ReadonlySet<Group> = new Set<Group>(['access']);

export interface GroupFunctionsProps {
  table: ITable;
  /** The public base URL the service reports about itself (UNLEASH_URL). */
  unleashUrl: string;
  /** Where the admin UI is served (ADMIN_UI_URL): its pages' changes are same-site even when UNLEASH_URL names another address. */
  adminUiUrl?: string | undefined;
  /** Key material for sealed secrets; only the groups in KEY_GROUPS may read it. */
  secretKey?: ISecret;
  /** The admin UI distribution's origin secret; only the groups in ORIGIN_SECRET_GROUPS may read it. */
  originSecret?: ISecret | undefined;
  /** Whether the table has global secondary indexes, which reads may then use. */
  tableHasIndexes?: boolean;
  /**
   * Memory of the SDK functions (client, frontend), MB; 512 by default. Lambda gives CPU in
   * proportion: a cold container builds the payload from the stored snapshot (ADR 20) in about
   * 3 s of one core at 50,000 flags, so past some 20,000 flags 1,769 MB (one full vCPU) keeps
   * that under the 10 s timeout (`-c sdkMemorySize=1769`, docs/deploying.md).
   */
  sdkMemorySize?: number;
}

/** One Lambda per endpoint group, each with exactly the table access its group needs. */
export class GroupFunctions extends Construct {
  readonly byGroup: Record<Group, lambda.Function>;

  constructor(scope: Construct, id: string, props: GroupFunctionsProps) {
    super(scope, id);
    const entries = GROUPS.map((group): [Group, lambda.Function] => {
      const key = KEY_GROUPS.has(group) ? props.secretKey : undefined;
      const originSecret = ORIGIN_SECRET_GROUPS.has(group) ? props.originSecret : undefined;
      const { function: fn } = new ServiceFunction(this, group, {
        entry: `functions/${group}/handler.ts`,
        description: `Feature toggles: ${group} endpoints`,
        bundle: bundleFor(group),
        environment: {
          TABLE_NAME: props.table.tableName,
          UNLEASH_URL: props.unleashUrl,
          ...(props.adminUiUrl ? { ADMIN_UI_URL: props.adminUiUrl } : {}),
          ...(key ? { SECRET_KEY_ARN: key.secretArn } : {}),
          ...(originSecret ? { CLOUDFRONT_ORIGIN_SECRET_ARN: originSecret.secretArn } : {}),
        },
        bundledFiles: GROUP_BUNDLED_FILES[group] ?? [],
        quietPlatformLogs: SDK_GROUPS.has(group),
        ...(SDK_GROUPS.has(group) && props.sdkMemorySize ? { memorySize: props.sdkMemorySize } : {}),
      });
      Tags.of(fn).add(GROUP_TAG, group);
      key?.grantRead(fn);
      originSecret?.grantRead(fn);
      // Each group's own table actions (infra/table-access.ts); the client function's writes reach only SDK usage.
      grantTableAccess(fn, props.table, GROUP_TABLE_ACCESS[group], { indexes: props.tableHasIndexes ?? false });
      return [group, fn];
    });
    this.byGroup = Object.fromEntries(entries) as Record<Group, lambda.Function>;
  }
}
