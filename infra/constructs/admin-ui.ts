import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, CfnResource, DefaultStackSynthesizer, Duration, Fn, SecretValue, Stack, Token, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/client-address.js';
import { fillIndexHtml } from '../../lib/ui/index-html.js';
import { entryModulePreloads } from '../../lib/ui/module-preloads.js';
import { API_PATH_PATTERNS, cacheControlFor, INDEX_HTML, type UiEntries } from '../../lib/ui/paths.js';
import type { InstalledUi } from '../../lib/ui/release.js';
import { HSTS_MAX_AGE_SECONDS, uiContentSecurityPolicy } from '../../lib/ui/security-headers.js';
import { missingUiPage, uiEntries } from '../../lib/ui/site.js';

/** `-c adminUi=false`: no distribution and no bucket (the API alone, as in China and GovCloud). */
export const ADMIN_UI_CONTEXT_KEY = 'adminUi';

/**
 * `-c originSecretVersion=<VersionId>`: the version of the origin secret the distribution sends.
 * CloudFormation reads a dynamic reference again only when it changes, so a new value put into
 * the secret reaches CloudFront with a deployment naming its version (docs/deploying.md).
 */
export const ORIGIN_SECRET_VERSION_CONTEXT_KEY = 'originSecretVersion';

export interface AdminUiProps {
  /** The HTTP API the distribution sends the API's paths to. */
  api: IHttpApi;
  /** The UI the install step extracted (lib/ui/release.ts); undefined: a page saying it is missing. */
  ui: InstalledUi | undefined;
}

/**
 * The admin UI and the API on one origin (DESIGN.md §5–6): a CloudFront distribution whose
 * behaviours send the API's paths (lib/ui/paths.ts, the local server's rule too) to the HTTP
 * API, uncached and with everything the viewer sent but Host, and every other path to a
 * private bucket holding Unleash's UI build, read through Origin Access Control.
 *
 * Client-side routes (`/projects/default`) are rewritten to index.html by a CloudFront
 * Function on the default behaviour only; distribution-wide custom error responses would turn
 * the API's own 404s and 403s into the app's page.
 */
export class AdminUi extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** The distribution's URL, no trailing slash (as UNLEASH_URL). */
  readonly url: string;
  readonly bucket: s3.Bucket;
  /**
   * What the distribution sends the API in a custom origin header, so the API believes the viewer
   * address it also sends (lib/http/client-address.ts): the execute-api endpoint stays open to
   * anyone, who could send such an address themselves.
   */
  readonly originSecret: secretsmanager.Secret;
  /** The viewer-request function's code, kept for the tests that run it. */
  readonly spaRewriteCode: string;

  /**
   * The admin UI unless `-c adminUi=false`, or the stack is pinned to a partition other than
   * `aws`: China has no CloudFront Functions or Origin Access Control, GovCloud no CloudFront,
   * so a deployment there leaves it out (and runs the UI with `npm start` against the API).
   */
  static fromContext(scope: Construct, id: string, props: AdminUiProps): AdminUi | undefined {
    const partition = Stack.of(scope).partition;
    if (!Token.isUnresolved(partition) && partition !== 'aws') {
      Annotations.of(scope).addWarningV2('toggles:admin-ui-partition', `No admin UI in the ${partition} partition: CloudFront Functions or Origin Access Control are not there.`);
      return undefined;
    }
    const setting: unknown = scope.node.tryGetContext(ADMIN_UI_CONTEXT_KEY);
    return setting === false || setting === 'false' ? undefined : new AdminUi(scope, id, props);
  }

  constructor(scope: Construct, id: string, props: AdminUiProps) {
    super(scope, id);

    this.bucket = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Earlier builds' files stay a while for pages still open on them, then go.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(30), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    const template = props.ui ? readFileSync(join(props.ui.buildDir, INDEX_HTML), 'utf8') : undefined;
    const indexHtml = props.ui && template !== undefined
      ? fillIndexHtml(template, { baseUriPath: '', modulePreloads: entryModulePreloads(props.ui.buildDir, template) })
      : missingUiPage.toString();
    const entries = props.ui ? uiEntries(props.ui) : { files: [INDEX_HTML], folders: [] };
    this.spaRewriteCode = spaRewriteCode(entries);
    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Client-side routes of the admin UI get index.html',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(this.spaRewriteCode),
    });

    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'Sent by the admin UI distribution to the API, proving a request came through it (its viewer address is then believed)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'CloudFront sends the value the last deployment resolved, so an automatic rotation would leave the distribution ' +
        'sending the old one; to rotate, put a new value and deploy with its version (docs/deploying.md).',
    });
    const version: unknown = scope.node.tryGetContext(ORIGIN_SECRET_VERSION_CONTEXT_KEY);
    // A dynamic reference: CloudFormation resolves it at deployment, the template holds no value.
    const originSecretReference = SecretValue.secretsManager(this.originSecret.secretArn, {
      ...(typeof version === 'string' && version ? { versionId: version } : {}),
    });

    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // API Gateway's integration timeout.
      readTimeout: Duration.seconds(30),
      // CloudFront replaces a viewer's header of the same name with this one.
      customHeaders: { [ORIGIN_SECRET_HEADER]: originSecretReference.unsafeUnwrap() },
    });
    const viewerAddress = new cloudfront.Function(this, 'ViewerAddress', {
      comment: "The viewer's address for the API, over any the viewer sent",
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(viewerAddressCode()),
    });
    const apiBehaviour: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // API Gateway routes by its own Host; everything else (Authorization, cookies, query) goes on,
      // the viewer-address header included. A policy of our own cannot add CloudFront's
      // CloudFront-Viewer-Address to that: an allow list may not name Authorization, forwarding
      // all headers sends Host, and "all but" takes no CloudFront header. So a viewer-request
      // function writes the address from the connection, over whatever the viewer sent.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      compress: false,
      responseHeadersPolicy: apiHeaders(this),
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Feature toggles: admin UI and API',
      defaultRootObject: INDEX_HTML,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        responseHeadersPolicy: uiHeaders(this, indexHtml),
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehaviour])),
    });

    this.url = `https://${this.distribution.distributionDomainName}`;
    this.deploy(props.ui, indexHtml);

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason: 'The distribution answers on its own cloudfront.net name, whose default certificate CloudFront serves with a ' +
        'TLSv1 minimum that no setting raises; a custom domain (README, deploying) brings a certificate and TLSv1.2_2021.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR3',
      reason: 'The API behind it logs every request in the API stage access logs (route, status, latency); the rest are ' +
        'the UI build files, the same for everyone, so a log bucket would record nothing worth its cost.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The people who manage flags and the SDKs that poll through this origin may be anywhere; which countries to ' +
        'refuse is for the operator to choose, added to the distribution when they have one.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason: 'A web ACL for CloudFront must be created in us-east-1, and this stack deploys to any Region; the API ' +
        'throttles per route itself (infra/throttling.ts). An operator attaches a us-east-1 web ACL by its ARN.',
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds only the public UI build, written by the deployment alone and read by CloudFront alone ' +
        '(Origin Access Control); server access logs would record only those reads.',
    });
  }

  /**
   * Uploads the build. index.html is filled here (CloudFront serves it as stored), for the
   * root of the distribution's own name, and goes up after the hashed assets it names.
   * Old files are kept (no prune): a page loaded before a deployment still finds its chunks.
   */
  private deploy(ui: InstalledUi | undefined, indexHtml: string): void {
    const logGroup = new logs.LogGroup(this, 'DeploymentLogs', { retention: logs.RetentionDays.ONE_MONTH });
    const role = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the admin UI build into its bucket',
    });
    logGroup.grantWrite(role);
    const common = { destinationBucket: this.bucket, prune: false, role, logGroup, memoryLimit: 256 };

    if (!ui) {
      Annotations.of(this).addWarningV2('toggles:admin-ui-missing', 'The admin UI is not installed (npm run ui:fetch): the distribution serves a page saying so.');
    }
    const assets = ui
      ? new BucketDeployment(this, 'Assets', {
        ...common,
        sources: [Source.asset(join(ui.buildDir, 'static'))],
        destinationKeyPrefix: 'static/',
        cacheControl: [CacheControl.fromString(cacheControlFor('static/'))],
      })
      : undefined;
    const files: ISource[] = [
      Source.data(INDEX_HTML, indexHtml),
      ...(ui ? [Source.asset(ui.buildDir, { exclude: ['static', INDEX_HTML] })] : []),
      ...Object.entries(ui?.licenceFiles ?? {}).map(([name, file]) => Source.data(name, readFileSync(file, 'utf8'))),
    ];
    const pages = new BucketDeployment(this, 'Pages', {
      ...common,
      sources: files,
      cacheControl: [CacheControl.fromString(cacheControlFor(INDEX_HTML))],
    });
    if (assets) pages.node.addDependency(assets);
    for (const deployment of [assets, pages]) if (deployment) giveServiceTimeout(deployment);
    this.acknowledgeDeploymentGrants(role);
  }

  /** cdk-nag's findings on CDK's bucket deployment: its grants, on the UI bucket and the CDK asset bucket only, and its runtime. */
  private acknowledgeDeploymentGrants(role: iam.Role): void {
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    // As cdk-nag names the asset bucket: pseudo parameters as <AWS::…> unless the stack is pinned.
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const qualifier = stack.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const assetBucket = `cdk-${qualifier}-assets-${shown(stack.account, 'AWS::AccountId')}-${shown(stack.region, 'AWS::Region')}`;
    const wildcards = [
      'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:DeleteObject*', 'Action::s3:Abort*',
      `Resource::<${bucketId}.Arn>/*`,
      `Resource::arn:${shown(stack.partition, 'AWS::Partition')}:s3:::${assetBucket}/*`,
    ];
    for (const finding of wildcards) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason: 'The deployment copies every file of the UI build from the CDK asset bucket into the UI bucket (s3 sync), ' +
          'object keys it cannot know in advance, in those two buckets only.',
      });
    }
    const handler = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (handler) {
      Validations.of(handler).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'The runtime of the bucket deployment function of CDK (Python 3.13, with the AWS CLI layer) is chosen by ' +
          'aws-cdk-lib; it moves with the aws-cdk-lib version this repository pins.',
      });
    }
  }
}

/**
 * How long CloudFormation waits for the bucket deployment function's answer: the function's own
 * timeout (15 minutes, set by aws-cdk-lib), so a copy still running is never cut off, instead of
 * CloudFormation's default hour, which a function that dies before answering would hold the
 * stack for. BucketDeployment has no setting for it, so it is set on its custom resource.
 */
export const BUCKET_DEPLOYMENT_SERVICE_TIMEOUT_SECONDS = 900;

function giveServiceTimeout(deployment: BucketDeployment): void {
  for (const child of deployment.node.findAll()) {
    if (child instanceof CfnResource && child.cfnResourceType === 'Custom::CDKBucketDeployment') {
      child.addPropertyOverride('ServiceTimeout', BUCKET_DEPLOYMENT_SERVICE_TIMEOUT_SECONDS);
    }
  }
}

/** Browsers keep to HTTPS for a year once they have seen the distribution, on its subdomains too. */
const strictTransportSecurity: cloudfront.ResponseHeadersStrictTransportSecurity = {
  accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, preload: false, override: true,
};

/**
 * The UI's answers (the bucket's files, stored without headers of their own): the policy the
 * local server sends (lib/ui/security-headers.ts) for the index.html deployed, no framing, no
 * sniffing, and HSTS, which only an HTTPS origin can say.
 */
function uiHeaders(scope: Construct, indexHtml: string): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'UiHeaders', {
    comment: 'Admin UI: its Content-Security-Policy, no framing, HSTS',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: uiContentSecurityPolicy(indexHtml), override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      contentTypeOptions: { override: true },
      strictTransportSecurity,
    },
  });
}

/**
 * The API's answers: HSTS always; the rest only where the API sent none, so /docs keeps its own
 * policy and frame option and a JSON answer opened in a tab loads nothing and cannot be framed.
 */
function apiHeaders(scope: Construct): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'ApiHeaders', {
    comment: 'API: HSTS; no framing and nothing loaded unless the answer says otherwise',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'", override: false },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: false },
      contentTypeOptions: { override: false },
      strictTransportSecurity,
    },
  });
}

/**
 * The API behaviours' viewer-request function (cloudfront-js-2.0): the address CloudFront took
 * the request from, which the viewer cannot choose, replaces any header of that name it sent.
 */
function viewerAddressCode(): string {
  return [
    'function handler(event) {',
    '  var request = event.request;',
    `  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };`,
    '  return request;',
    '}',
  ].join('\n');
}

/**
 * The default behaviour's viewer-request function (cloudfront-js-2.0): a path naming a file at
 * the top of the UI or anything under one of its folders goes on as it is, every other path is
 * a client-side route and gets index.html. The same rule as lib/ui/paths.ts uiObjectKey, which
 * the infra test holds it to.
 */
function spaRewriteCode(entries: UiEntries): string {
  return [
    `var FILES = ${JSON.stringify(entries.files)};`,
    `var FOLDERS = ${JSON.stringify(entries.folders)};`,
    'function handler(event) {',
    '  var request = event.request;',
    "  var key = request.uri.replace(/^\\/+/, '');",
    "  var first = key.split('/')[0];",
    '  var inFolder = FOLDERS.indexOf(first) >= 0 && key.length > first.length + 1;',
    "  var topFile = key.indexOf('/') < 0 && FILES.indexOf(key) >= 0;",
    `  if (!inFolder && !topFile) request.uri = '/${INDEX_HTML}';`,
    '  return request;',
    '}',
  ].join('\n');
}
