import { defineSamples } from '../samples.js';
import { frontendRoutes } from './routes.js';
import { frontendSettingsRoutes } from './settings-routes.js';

/** What the browser SDK (unleash-proxy-client 3) sends with every request. */
const BROWSER = {
  accept: 'application/json',
  origin: 'https://app.example.com',
  'unleash-appname': 'sample-web',
  'unleash-sdk': 'unleash-client-js:3.8.2',
  'unleash-connection-id': '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
};

export const frontendSamples = defineSamples(frontendRoutes, {
  'features': {
    operation: 'getFrontendFeatures',
    query: { appName: 'sample-web', userId: 'user-42', sessionId: '1234567', 'properties[region]': 'eu' },
    headers: BROWSER,
    status: 200,
  },
  'features-post': {
    operation: 'postFrontendFeatures',
    body: { context: { appName: 'sample-web', userId: 'user-42', properties: { region: 'eu' } } },
    headers: BROWSER,
    status: 200,
  },
  'features-too-many-properties': {
    operation: 'postFrontendFeatures',
    body: { context: { properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 'x'])) } },
    headers: BROWSER,
    status: 400,
  },
  'metrics': {
    operation: 'reportFrontendMetrics',
    body: {
      appName: 'sample-web',
      instanceId: 'browser',
      bucket: {
        start: '2026-11-22T03:00:00.000Z',
        stop: '2026-11-22T03:01:00.000Z',
        toggles: { 'sample-feature-{{UNIQUE}}': { yes: 3, no: 1, variants: {} } },
      },
    },
    headers: BROWSER,
    status: 200,
  },
  'register': {
    operation: 'registerFrontendClient',
    body: { appName: 'sample-web', instanceId: 'browser', sdkVersion: 'unleash-client-swift:2.1.0', strategies: [], started: '2026-11-22T03:00:00.000Z', interval: 30000 },
    headers: BROWSER,
    status: 200,
  },
  'preflight': {
    operation: 'preflightFrontend',
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,if-none-match' },
    status: 204,
  },
  'preflight-path': {
    operation: 'preflightFrontendPath',
    params: { proxy: 'client/metrics' },
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    status: 204,
  },
});

export const frontendSettingsSamples = defineSamples(frontendSettingsRoutes, {
  // Every origin, as a fresh install allows: running the sample changes nothing a browser notices.
  'set-cors-origins': { operation: 'setFrontendOrigins', body: { frontendApiOrigins: ['*'] }, status: 204 },
  'set-cors-origins-bad': { operation: 'setFrontendOrigins', body: { frontendApiOrigins: ['example.com'] }, status: 400 },
});
