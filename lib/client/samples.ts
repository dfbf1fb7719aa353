import { defineSamples } from '../samples.js';
import { clientRoutes } from './routes.js';

/** What the Node SDK (unleash-client 6) sends with every request; its User-Agent is the app name. */
const SDK = {
  accept: '*/*',
  'user-agent': 'unleash-sdk-sample',
  'unleash-appname': 'sample-app',
  'unleash-instanceid': 'sample-instance',
  'unleash-sdk': 'unleash-node-sdk:6.12.1',
  'unleash-connection-id': '3f2b6c1e-8d4a-4b7e-9c2d-5a6b7c8d9e0f',
};

export const clientSamples = defineSamples(clientRoutes, {
  'register': {
    operation: 'registerClient',
    body: {
      appName: 'sample-app',
      instanceId: 'sample-instance',
      sdkVersion: 'unleash-node-sdk:6.12.1',
      strategies: ['default', 'userWithId', 'remoteAddress', 'flexibleRollout'],
      started: '2026-11-22T03:00:00.000Z',
      interval: 60000,
      connectionId: '3f2b6c1e-8d4a-4b7e-9c2d-5a6b7c8d9e0f',
      platformName: 'node',
      platformVersion: '20.20.2',
      yggdrasilVersion: null,
      specVersion: '5.2.0',
    },
    headers: { ...SDK, 'unleash-interval': 'undefined' },
    status: 202,
  },
  // An application of its own, for the admin sample that deletes one (applications/delete-application).
  'register-retired-app': {
    operation: 'registerClient',
    body: { appName: 'retired-app-{{UNIQUE}}', instanceId: 'sample-instance', sdkVersion: 'unleash-node-sdk:6.12.1', strategies: ['default'] },
    headers: { ...SDK, 'unleash-interval': 'undefined' },
    status: 202,
  },
  'metrics': {
    operation: 'reportClientMetrics',
    body: {
      appName: 'sample-app',
      instanceId: 'sample-instance',
      connectionId: '3f2b6c1e-8d4a-4b7e-9c2d-5a6b7c8d9e0f',
      bucket: {
        start: '2026-11-22T03:00:00.000Z',
        stop: '2026-11-22T03:01:00.000Z',
        toggles: { 'sample-feature-{{UNIQUE}}': { yes: 3, no: 1, variants: { blue: 3 } } },
      },
      platformName: 'node',
      platformVersion: '20.20.2',
      yggdrasilVersion: null,
      specVersion: '5.2.0',
    },
    headers: { ...SDK, 'unleash-interval': '60000' },
    status: 202,
  },
  // The SDK routes read JSON whatever the content type: the Node SDK stops reporting after a 415.
  'metrics-wrong-content-type': {
    operation: 'reportClientMetrics',
    body: {
      appName: 'sample-app',
      bucket: {
        start: '2026-11-22T03:00:00.000Z',
        stop: '2026-11-22T03:01:00.000Z',
        toggles: { 'sample-feature-{{UNIQUE}}': { yes: 1, no: 0 } },
      },
    },
    headers: { ...SDK, 'content-type': 'text/plain' },
    status: 202,
  },
  'features': {
    operation: 'getClientFeatures',
    headers: { ...SDK, 'unleash-client-spec': '5.2.0', 'unleash-interval': '15000' },
    status: 200,
  },
  'features-filtered': {
    operation: 'getClientFeatures',
    query: { project: 'default', namePrefix: 'sample-', tag: 'simple:beta' },
    headers: { ...SDK, 'unleash-interval': '15000' },
    status: 200,
  },
  // The Node SDK in delta mode (experimentalMode { type: 'polling', format: 'delta' }): no ETag yet, so a hydration.
  'delta': {
    operation: 'getClientDelta',
    headers: { ...SDK, 'unleash-client-spec': '5.2.0', 'unleash-interval': '15000' },
    status: 200,
  },
  // A revision the table never held: a hydration again, never a 304.
  'delta-unknown-revision': {
    operation: 'getClientDelta',
    headers: { ...SDK, 'unleash-client-spec': '5.2.0', 'if-none-match': '"999999999999"' },
    status: 200,
  },
  // Streaming mode: the 404 makes the SDK poll /api/client/features at once.
  'streaming': { operation: 'streamClientFeatures', headers: { ...SDK, accept: 'text/event-stream' }, status: 404 },
  'features-bad-tag': { operation: 'getClientFeatures', query: { tag: 'beta' }, headers: SDK, status: 400 },
  'feature-unknown': {
    operation: 'getClientFeature',
    params: { featureName: 'sample-no-such-feature' },
    headers: SDK,
    status: 404,
  },
});
