import { createHash } from 'node:crypto';
import { CustomResource, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BOOTSTRAP_TABLE_ACCESS } from '../table-access.js';
import { ServiceFunction } from './service-function.js';
import { grantTableAccess } from './table-grants.js';
import { DATA_MIGRATIONS } from '../../lib/store/table-design.js';

export interface BootstrapAdminTokenProps {
  table: ITable;
  /**
   * The functions whose code the data migrations follow: the resource runs after they are updated,
   * so the migrations' settling time counts from when the previous code stops taking requests.
   */
  after?: Construct[];
  /** `-c dataMigrationRun`: a new value runs the data migrations again. */
  migrationRun?: string;
}

/**
 * CloudFormation generates the secret; a custom resource stores `*:*.<secret>` as an admin token.
 * No token value appears in the template, in the stack's parameters or in any function's
 * environment. See docs/adr/0002-bootstrap-admin-token.md.
 */
export class BootstrapAdminToken extends Construct {
  readonly secret: secretsmanager.Secret;
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: BootstrapAdminTokenProps) {
    super(scope, id);

    // Alphanumeric, so the token needs no quoting in shells, headers or SDK configuration.
    const generation: secretsmanager.SecretStringGenerator = {
      passwordLength: 48,
      excludePunctuation: true,
      includeSpace: false,
    };
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Secret part of the bootstrap admin API token (*:*.<secret>)',
      generateSecretString: generation,
      // The token opens the table, and the table is retained, so the secret is too.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A stored API token cannot follow an automatic rotation. Operators rotate by creating a new admin ' +
        'token through the API and deleting this one (see docs/adr/0002-bootstrap-admin-token.md).',
    });

    this.function = new ServiceFunction(this, 'Apply', {
      entry: 'functions/bootstrap/handler.ts',
      description: 'Stores the bootstrap admin API token (CloudFormation custom resource)',
      // A data migration holds every feature and every copy at once (ADR 17): ~250 MB at 50,000 flags.
      memorySize: 1024,
      timeout: Duration.seconds(60),
      // The ARN only: the value is read at run time with the SDK (lib/secrets/secret-source.ts).
      environment: { TABLE_NAME: props.table.tableName, ADMIN_TOKEN_SECRET_ARN: this.secret.secretArn },
    });
    this.secret.grantRead(this.function.function);
    grantTableAccess(this.function.function, props.table, BOOTSTRAP_TABLE_ACCESS, { indexes: false });

    const resource = new CustomResource(this, 'Resource', {
      // A direct Lambda-backed resource: no Provider framework, so no extra functions or state machine.
      serviceToken: this.function.function.functionArn,
      resourceType: 'Custom::BootstrapAdminToken',
      // Twice the function's timeout: a function that crashed before answering CloudFormation
      // fails the deployment in two minutes instead of holding the stack for the default hour.
      serviceTimeout: Duration.seconds(120),
      properties: {
        SecretArn: this.secret.secretArn,
        // A replaced table gets the token again.
        TableName: props.table.tableName,
        // CloudFormation generates a new value when these settings change; the token follows,
        // and the previous token is removed once the update has succeeded (functions/bootstrap).
        SecretGeneration: fingerprint(generation),
        // Changed when the resource's protocol changes, so existing stacks get an Update. 2: the
        // physical id names the stored token, which lets a rotation remove the previous one.
        Protocol: '2',
        // The data migrations this version brings (lib/store/table-design.ts): a new one changes
        // the property, so the first deployment of that version sends an Update and runs it.
        // `-c dataMigrationRun=<anything new>` sends one more, to finish a migration a deployment cut short.
        DataMigrations: [...Object.values(DATA_MIGRATIONS), props.migrationRun ?? ''].join(':'),
      },
    });
    for (const dependency of props.after ?? []) resource.node.addDependency(dependency);
  }
}

function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
