import path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '../../lib/time-budget.js';
import { BUNDLING, DEFAULT_BUNDLE, type FunctionBundle } from '../bundling.js';
import { fromRoot, projectRoot } from '../paths.js';

export interface ServiceFunctionProps {
  /** The handler module, relative to the repository root; it must export `handler`. */
  entry: string;
  description: string;
  environment?: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  paramsAndSecrets?: lambda.ParamsAndSecretsLayerVersion;
  /** SDK and module format (infra/bundling.ts, ADR 9); by default the SDK is bundled into an ES module. */
  bundle?: FunctionBundle;
  /** Files the function reads at run time, copied into its bundle after esbuild has run. */
  bundledFiles?: readonly BundledFile[];
  /**
   * Leave out Lambda's own START and REPORT lines (system log level WARN; errors, timeouts and
   * failed starts are still logged): on the SDK poll path they are most of the log bill
   * (docs/cost.md). Alarms read CloudWatch metrics, not these lines.
   */
  quietPlatformLogs?: boolean;
}

export interface BundledFile {
  /** Relative to the repository root. */
  from: string;
  /** Relative to the bundle's root, where `index.mjs` is. */
  to: string;
}

/**
 * Every Lambda of the stack is built here, so runtime, architecture, bundling, logging and
 * permissions are decided once.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    const bundle = props.bundle ?? DEFAULT_BUNDLE;
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });

    // An own role instead of AWSLambdaBasicExecutionRole: that managed policy may write to every
    // log group in the account; this one may write only to the function's own.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs: ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: fromRoot(props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: fromRoot('package-lock.json'),
      description: props.description,
      // Explicit: without it NodejsFunction falls back to an old default runtime.
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      // The request path's time budget (lib/time-budget.ts) is reckoned on this timeout.
      timeout: props.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      ...(props.quietPlatformLogs ? { systemLogLevelV2: lambda.SystemLogLevel.WARN } : {}),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      ...(props.paramsAndSecrets ? { paramsAndSecrets: props.paramsAndSecrets } : {}),
      bundling: {
        format: bundle.format === 'cjs' ? OutputFormat.CJS : OutputFormat.ESM,
        target: BUNDLING.target,
        minify: BUNDLING.minify,
        sourceMap: true,
        sourcesContent: false,
        mainFields: [...BUNDLING.mainFields],
        // The SDK version we test against ships inside the bundle, rather than whichever
        // version the Lambda runtime happens to carry, unless the bundle's size rules (ADR 9).
        bundleAwsSDK: bundle.awsSdk === 'bundled',
        ...(bundle.format === 'esm' ? { banner: BUNDLING.esmBanner } : {}),
        ...(props.bundledFiles?.length ? { commandHooks: copyHooks(props.bundledFiles) } : {}),
      },
    });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 is the runtime this service is built and tested for (design §5); moving on is a deliberate upgrade.',
    });
  }
}

/**
 * Copies files into the bundle as its last step. The commands run in a shell, locally or in
 * the bundling container alike, where `inputDir` is the repository root.
 */
function copyHooks(files: readonly BundledFile[]): ICommandHooks {
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map(({ from, to }) => {
        const target = path.posix.join(outputDir, to);
        return `mkdir -p ${quote(path.posix.dirname(target))} && cp ${quote(path.posix.join(inputDir, from))} ${quote(target)}`;
      }),
  };
}
