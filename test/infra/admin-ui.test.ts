import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUi } from '../../infra/constructs/admin-ui.js';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/client-address.js';
import { routeTable } from '../../lib/route-table.js';
import { fillIndexHtml } from '../../lib/ui/index-html.js';
import { API_PATH_PATTERNS, uiObjectKey } from '../../lib/ui/paths.js';
import { installedUi } from '../../lib/ui/release.js';
import { uiContentSecurityPolicy } from '../../lib/ui/security-headers.js';
import { missingUiPage } from '../../lib/ui/site.js';
import { referencedId, resourcesOf, synthesizeStack, type Resource } from './synth.js';

/** CloudFront's managed policies, by the ids AWS documents for them. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** CloudFront's path-pattern match (case-sensitive, `*` any run, `?` one character), written here from its documentation. */
const cloudFrontMatches = (pattern: string, path: string): boolean =>
  new RegExp(`^${pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/]/g, '\\$&'))).join('')}$`, 's').test(path);

/** A CloudFront function of the template, by the comment its construct gives it. */
function cloudFrontFunction(template: Template, comment: RegExp): [string, Resource] {
  const found = resourcesOf(template, 'AWS::CloudFront::Function').filter(([, fn]) => comment.test(fn.Properties.FunctionConfig.Comment));
  expect(found, String(comment)).toHaveLength(1);
  return found[0]!;
}

function single(template: Template, type: string): Resource {
  const found = resourcesOf(template, type);
  expect(found, type).toHaveLength(1);
  return found[0]![1];
}

describe('the admin UI in the stack: one CloudFront origin for the UI and the API', () => {
  let template: Template;
  let config: Record<string, any>;
  beforeAll(() => {
    template = synthesizeStack();
    config = single(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;
  });

  it('keeps the UI in a private, encrypted, versioned bucket that refuses plain HTTP', () => {
    const [bucketId, bucket] = resourcesOf(template, 'AWS::S3::Bucket').find(([id]) => id.startsWith('AdminUi'))!;
    const policy = resourcesOf(template, 'AWS::S3::BucketPolicy').map(([, p]) => p).find((p) => referencedId(p.Properties.Bucket) === bucketId);

    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(policy?.Properties.PolicyDocument.Statement).toEqual(expect.arrayContaining([
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]));
  });

  it('lets only this distribution read the bucket, through Origin Access Control', () => {
    const distributionId = resourcesOf(template, 'AWS::CloudFront::Distribution')[0]![0];
    const oac = single(template, 'AWS::CloudFront::OriginAccessControl');
    const s3Origin = config.Origins.find((origin: any) => origin.S3OriginConfig);
    const reads = resourcesOf(template, 'AWS::S3::BucketPolicy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[])
      .filter((s) => s.Principal?.Service === 'cloudfront.amazonaws.com');

    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    expect(referencedId(s3Origin.OriginAccessControlId)).toBe(resourcesOf(template, 'AWS::CloudFront::OriginAccessControl')[0]![0]);
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(reads[0].Condition)).toContain(distributionId!);
  });

  it('sends each API path pattern to the HTTP API: uncached, every method, all the viewer sent but Host, HTTPS only', () => {
    const apiOrigin = config.Origins.find((origin: any) => origin.CustomOriginConfig);

    expect(config.CacheBehaviors.map((b: any) => b.PathPattern).sort()).toEqual([...API_PATH_PATTERNS].sort());
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('ApiEndpoint');
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    for (const behaviour of config.CacheBehaviors) {
      expect(behaviour, behaviour.PathPattern).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
      });
    }
  });

  it("tells the API each viewer's address, written at the edge over anything the viewer sent", () => {
    const [functionId] = cloudFrontFunction(template, /viewer's address/);

    for (const behaviour of config.CacheBehaviors) {
      // The managed policy forwards every viewer header but Host, so the header the function writes goes on too.
      expect(behaviour.OriginRequestPolicyId, behaviour.PathPattern).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(behaviour.FunctionAssociations, behaviour.PathPattern).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
  });

  it('proves a request came through the distribution with a generated secret origin header, a dynamic reference and never the value', () => {
    const apiOrigin = config.Origins.find((origin: any) => origin.CustomOriginConfig);
    const secrets = resourcesOf(template, 'AWS::SecretsManager::Secret').filter(([, secret]) => /distribution/i.test(secret.Properties.Description));
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;

    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true, IncludeSpace: false });
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(apiOrigin.OriginCustomHeaders).toEqual([{
      HeaderName: ORIGIN_SECRET_HEADER,
      HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
    }]);
    // The UI's bucket origin gets no secret.
    expect(config.Origins.find((origin: any) => origin.S3OriginConfig).OriginCustomHeaders).toBeUndefined();
  });

  it('names the version of the secret the header carries when the deployment is told one (rotation)', () => {
    const rotated = synthesizeStack({ originSecretVersion: 'b1f2c3d4-0000-4000-8000-000000000001' });
    const origin = single(rotated, 'AWS::CloudFront::Distribution').Properties.DistributionConfig.Origins
      .find((o: any) => o.CustomOriginConfig);

    expect(JSON.stringify(origin.OriginCustomHeaders[0].HeaderValue)).toContain(':SecretString:::b1f2c3d4-0000-4000-8000-000000000001}}');
  });

  it('never gives an API path the SPA fallback: every route reaches an API behaviour, and no error page is distribution-wide', () => {
    const reachingDefault = Object.values(routeTable)
      .map((route) => route.path.replace(/\{[^}]+\}/g, 'x'))
      .filter((path) => !config.CacheBehaviors.some((b: any) => cloudFrontMatches(b.PathPattern, path)));

    expect(reachingDefault).toEqual([]);
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('serves the UI from the bucket by default, rewriting client-side routes in a viewer-request function', () => {
    const [functionId] = cloudFrontFunction(template, /Client-side routes/);
    const s3Origin = config.Origins.find((origin: any) => origin.S3OriginConfig);

    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3Origin.Id,
      AllowedMethods: ['GET', 'HEAD'],
      ViewerProtocolPolicy: 'redirect-to-https',
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }],
    });
    expect(config.DefaultRootObject).toBe('index.html');
  });

  it('answers the UI with its Content-Security-Policy, X-Frame-Options DENY and HSTS, through a response-headers policy', () => {
    const policy = responseHeadersOf(template, config.DefaultCacheBehavior);
    const ui = installedUi();
    const indexHtml = ui ? fillIndexHtml(readFileSync(join(ui.buildDir, 'index.html'), 'utf8'), { baseUriPath: '' }) : missingUiPage.toString();

    expect(policy.SecurityHeadersConfig).toEqual({
      ContentSecurityPolicy: { ContentSecurityPolicy: uiContentSecurityPolicy(indexHtml), Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ContentTypeOptions: { Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Preload: false, Override: true },
    });
    expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
  });

  it("adds HSTS to every API answer, and keeps the API out of frames unless it says otherwise (/docs sends its own policy)", () => {
    for (const behaviour of config.CacheBehaviors) {
      const policy = responseHeadersOf(template, behaviour);

      expect(policy.SecurityHeadersConfig, behaviour.PathPattern).toEqual({
        ContentSecurityPolicy: { ContentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'", Override: false },
        FrameOptions: { FrameOption: 'DENY', Override: false },
        ContentTypeOptions: { Override: false },
        StrictTransportSecurity: { AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Preload: false, Override: true },
      });
    }
  });

  it('uploads the build with the deployment, and outputs the URL people open', () => {
    expect(resourcesOf(template, 'Custom::CDKBucketDeployment').length).toBeGreaterThanOrEqual(1);
    template.hasOutput('AdminUiUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] }, '/']] } });
  });
});

/** The response-headers policy a cache behaviour names, as synthesized. */
function responseHeadersOf(template: Template, behaviour: Record<string, any>): Record<string, any> {
  const id = referencedId(behaviour.ResponseHeadersPolicyId);
  const found = resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy').find(([policyId]) => policyId === id);
  expect(found, `the response-headers policy of ${behaviour.PathPattern ?? 'the default behaviour'}`).toBeDefined();
  return found![1].Properties.ResponseHeadersPolicyConfig;
}

/** A UI folder shaped as the install step leaves it, so these tests need neither the network nor the real build. */
function fixtureUi(dir: string) {
  const buildDir = join(dir, 'build');
  mkdirSync(join(buildDir, 'static'), { recursive: true });
  mkdirSync(join(buildDir, 'flags-normal'));
  writeFileSync(join(buildDir, 'index.html'), '<meta name="baseUriPath" content="::baseUriPath::" /><script src="/static/app-abc.js"></script>');
  writeFileSync(join(buildDir, 'static', 'app-abc.js'), 'console.log(1)');
  writeFileSync(join(buildDir, 'flags-normal', 'se.png'), 'png');
  writeFileSync(join(buildDir, 'favicon.ico'), 'ico');
  writeFileSync(join(dir, 'LICENSE'), 'Apache License');
  return { buildDir, licenceFiles: { LICENSE: join(dir, 'LICENSE') } };
}

function adminUiStack(ui: ReturnType<typeof fixtureUi> | undefined): { stack: Stack; adminUi: AdminUi } {
  const stack = new Stack(new App(), 'UiOnly');
  const adminUi = new AdminUi(stack, 'AdminUi', { api: new HttpApi(stack, 'Api'), ui });
  return { stack, adminUi };
}

describe("the API behaviours' viewer-address function", () => {
  it("writes the viewer's address CloudFront saw, replacing one the viewer sent", () => {
    const stack = new Stack(new App(), 'UiOnly');
    new AdminUi(stack, 'AdminUi', { api: new HttpApi(stack, 'Api'), ui: undefined });
    const code = cloudFrontFunction(Template.fromStack(stack), /viewer's address/)[1].Properties.FunctionCode as string;
    // The function as CloudFront runs it: `handler(event)` with the viewer's request and address.
    const handler = new Function(`${code}\nreturn handler;`)() as (event: unknown) => { headers: Record<string, { value: string }> };

    const forged = handler({
      viewer: { ip: '2001:db8::7' },
      request: { uri: '/auth/simple/login', method: 'POST', headers: { [VIEWER_ADDRESS_HEADER]: { value: '203.0.113.1' }, accept: { value: '*/*' } } },
    });
    const plain = handler({ viewer: { ip: '198.51.100.7' }, request: { uri: '/logout', method: 'GET', headers: {} } });

    expect(forged.headers).toEqual({ [VIEWER_ADDRESS_HEADER]: { value: '2001:db8::7' }, accept: { value: '*/*' } });
    expect(plain.headers).toEqual({ [VIEWER_ADDRESS_HEADER]: { value: '198.51.100.7' } });
  });
});

describe('the SPA rewrite function', () => {
  let dir: string;
  let rewrite: (uri: string) => string;
  let ui: ReturnType<typeof fixtureUi>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'admin-ui-infra-'));
    ui = fixtureUi(dir);
    const { stack } = adminUiStack(ui);
    const code = cloudFrontFunction(Template.fromStack(stack), /Client-side routes/)[1].Properties.FunctionCode as string;
    // The function as CloudFront runs it: `handler(event)` with the viewer's request.
    const handler = new Function(`${code}\nreturn handler;`)() as (event: unknown) => { uri: string };
    rewrite = (uri) => handler({ request: { uri, method: 'GET', headers: {} } }).uri;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rewrites client-side routes to index.html and leaves the build\'s files and the licence alone', () => {
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/projects/default')).toBe('/index.html');
    expect(rewrite('/projects/default/features/checkout.v2')).toBe('/index.html');
    expect(rewrite('/static/app-abc.js')).toBe('/static/app-abc.js');
    expect(rewrite('/flags-normal/se.png')).toBe('/flags-normal/se.png');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
    expect(rewrite('/LICENSE')).toBe('/LICENSE');
  });

  it('decides every path as the local server does (lib/ui/paths.ts)', () => {
    const entries = { files: ['favicon.ico', 'index.html', 'LICENSE'], folders: ['flags-normal', 'static'] };
    for (const path of ['/', '/index.html', '/static', '/static/', '/static/x/y.js', '/flags-normal/se.png', '/favicon.ico/x', '/robots.txt', '//static/app-abc.js', '/login']) {
      expect(rewrite(path), path).toBe(`/${uiObjectKey(path, entries)}` === '/index.html' ? '/index.html' : path);
    }
  });

  it("allows index.html's inline scripts by their hash in the UI's policy", () => {
    writeFileSync(join(ui.buildDir, 'index.html'), '<script>window.x = 1;</script><script src="/static/app-abc.js"></script>');
    const { stack } = adminUiStack(ui);
    const template = Template.fromStack(stack);
    const config = single(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig;

    const policy = responseHeadersOf(template, config.DefaultCacheBehavior).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;

    expect(policy).toContain(`script-src 'self' 'report-sample' 'sha256-${createHash('sha256').update('window.x = 1;').digest('base64')}';`);
  });

  it('deploys a page saying the UI is missing when the install step could not fetch it, and says so at synthesis', () => {
    const { stack } = adminUiStack(undefined);

    expect(resourcesOf(Template.fromStack(stack), 'Custom::CDKBucketDeployment')).toHaveLength(1);
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('admin UI is not installed'))).toHaveLength(1);
  });
});
