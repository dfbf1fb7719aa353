import { CfnOutput, Fn, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { routeTable } from '../lib/route-table.js';
import { installedUi } from '../lib/ui/release.js';
import { tableDefinition as defaultTableDefinition, type TableDefinition } from '../lib/store/table-design.js';
import { AdminUi } from './constructs/admin-ui.js';
import { BootstrapAdminToken } from './constructs/bootstrap-admin-token.js';
import { GroupFunctions } from './constructs/group-functions.js';
import { SecretKey } from './constructs/secret-key.js';
import { InsightsSnapshot } from './constructs/insights-snapshot.js';
import { SdkSnapshot } from './constructs/sdk-snapshot.js';
import { MetricsPipeline } from './constructs/metrics-pipeline.js';
import { IntegrationsPipeline } from './constructs/integrations-pipeline.js';
import { SdkFunctionUrl } from './constructs/sdk-function-url.js';
import { ServiceAlarms, alarmEmailsFromContext } from './constructs/service-alarms.js';
import { TogglesApi } from './constructs/toggles-api.js';
import { TogglesTable } from './constructs/toggles-table.js';
import { throttlingFromContext, type ApiThrottling } from './throttling.js';

export interface TogglesStackProps extends StackProps {
  /** The public URL when it is not the API's own, such as a custom domain. */
  unleashUrl?: string;
  /** For tests only: the stack must stay valid as the key design grows. */
  tableDefinition?: TableDefinition;
  /** Per-route API limits; by default from context (`-c sdkRateLimit=2000`, infra/throttling.ts). */
  throttling?: ApiThrottling;
  /** Subscribed to the alarm topic; by default from context (`-c alarmEmail=ops@example.com`). */
  alarmEmails?: readonly string[];
}

/** The whole service: one table, one function per endpoint group, one HTTP API. */
export class TogglesStack extends Stack {
  constructor(scope: Construct, id: string, props: TogglesStackProps = {}) {
    super(scope, id, props);

    const definition = props.tableDefinition ?? defaultTableDefinition;
    const { table } = new TogglesTable(this, 'Data', { definition });
    const api = new TogglesApi(this, 'Api', {
      throttling: props.throttling ?? throttlingFromContext((key) => this.node.tryGetContext(key)),
    });

    // The admin UI and the API on one CloudFront origin; the UI as the install step extracted it.
    const adminUi = AdminUi.fromContext(this, 'AdminUi', { api: api.httpApi, ui: installedUi() });

    // The functions may read the API's endpoint: the API resource itself does not depend on
    // them (only its routes and integrations do), so there is no cycle. With the admin UI the
    // public URL is the distribution's, the origin the UI's cookie-carried changes come from.
    const secretKey = new SecretKey(this, 'SecretKey');
    const functions = new GroupFunctions(this, 'Groups', {
      table,
      unleashUrl: props.unleashUrl ?? adminUi?.url ?? api.httpApi.apiEndpoint,
      secretKey: secretKey.secret,
      // Only with the admin UI: without a distribution, every address is API Gateway's own.
      originSecret: adminUi?.originSecret,
      tableHasIndexes: definition.indexes.length > 0,
      sdkMemorySize: memorySizeFromContext(this.node.tryGetContext('sdkMemorySize')),
      // Only when UNLEASH_URL names another address: by default it is the UI's URL already.
      adminUiUrl: props.unleashUrl === undefined ? undefined : adminUi?.url,
    });
    api.addRouteTable(Object.values(routeTable), functions.byGroup);
    // `-c sdkFrontDoor=functionUrl`: a Lambda function URL on the client function too, with the SdkUrl output.
    SdkFunctionUrl.fromContext(this, 'SdkFrontDoor', functions.byGroup.client);

    // SDK metrics go through two queued stages before the table (ADR 15).
    const metrics = new MetricsPipeline(this, 'Metrics', { table, reporters: [functions.byGroup.client, functions.byGroup.frontend] });

    // Integrations: change events from the table's stream, delivered off a queue.
    const integrations = new IntegrationsPipeline(this, 'Integrations', {
      table, secretKey: secretKey.secret, unleashUrl: props.unleashUrl ?? adminUi?.url ?? api.httpApi.apiEndpoint,
    });

    const bootstrap = new BootstrapAdminToken(this, 'BootstrapAdminToken', {
      table,
      after: Object.values(functions.byGroup),
      migrationRun: this.node.tryGetContext('dataMigrationRun') as string | undefined,
    });
    const insights = new InsightsSnapshot(this, 'Insights', { table, tableHasIndexes: definition.indexes.length > 0 });
    const sdkSnapshot = new SdkSnapshot(this, 'SdkSnapshot', { table, tableHasIndexes: definition.indexes.length > 0 });
    const secretArn = bootstrap.secret.secretArn;
    const alarms = new ServiceAlarms(this, 'Alarms', {
      stage: api.stage,
      functions: {
        ...functions.byGroup, snapshot: insights.function.function, sdkSnapshot: sdkSnapshot.function.function, bootstrap: bootstrap.function.function,
        metricsSum: metrics.sumFunction.function, metricsStore: metrics.storeFunction.function,
        integrationsStream: integrations.streamFunction.function, integrationsDelivery: integrations.deliveryFunction.function,
      },
      emails: props.alarmEmails ?? alarmEmailsFromContext(this.node.tryGetContext('alarmEmail')),
    });
    for (const alarm of [...metrics.alarms, integrations.alarm]) {
      alarm.addAlarmAction(new SnsAction(alarms.topic));
      alarm.addOkAction(new SnsAction(alarms.topic));
    }

    if (definition.indexes.length > 0) {
      // Table grants add `<table>/index/*`; only that wildcard is accepted, nothing broader.
      const tableId = this.getLogicalId(table.node.defaultChild as CfnTable);
      Validations.of(this).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
        reason: 'Indexes of the single table hold projections of items the function may already access.',
      });
    }

    // No trailing slash, as UNLEASH_URL: SDKs use <ApiUrl>/api.
    new CfnOutput(this, 'ApiUrl', { value: api.httpApi.apiEndpoint, description: 'Base URL; SDKs use <ApiUrl>/api' });
    if (adminUi) {
      new CfnOutput(this, 'AdminUiUrl', {
        value: `${adminUi.url}/`,
        description: 'The admin UI, with the API on the same origin',
      });
    }
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'AdminTokenSecretArn', { value: secretArn });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarms.topic.topicArn,
      description: 'Every alarm notifies this topic when it fires and when it recovers; subscribe to it',
    });
    new CfnOutput(this, 'ReadAdminToken', {
      description: 'Prints the bootstrap admin API token',
      value: Fn.join('', [
        'echo "*:*.$(aws secretsmanager get-secret-value --region ',
        this.region,
        ' --secret-id ',
        secretArn,
        ' --query SecretString --output text)"',
      ]),
    });
    new CfnOutput(this, 'ReadAdminPassword', {
      description: 'Prints the first admin user\'s generated password (username admin; change it after logging in)',
      value: Fn.join('', [
        'aws secretsmanager get-secret-value --region ', this.region, ' --secret-id ', bootstrap.adminPassword.secretArn,
        ' --query SecretString --output text',
      ]),
    });
  }
}

/** `-c sdkMemorySize=…`: Lambda's range, 128 MB to 10,240 MB. */
function memorySizeFromContext(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 128 || size > 10_240) throw new Error(`-c sdkMemorySize must be a whole number of MB from 128 to 10240, not ${String(value)}`);
  return size;
}
