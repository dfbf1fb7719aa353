import { defineSamples } from '../samples.js';
import { edgeRoutes } from './routes.js';

/** What Unleash Edge 20 sends with every upstream request (its reqwest client's default headers). */
const EDGE = {
  'user-agent': 'unleash-edge-20.1.0',
  'unleash-appname': 'unleash-edge',
  'unleash-instanceid': '01JQ5ZB6Y2M4V7X9A1C3E5G7H9',
  'unleash-connection-id': '01JQ5ZB6Y2M4V7X9A1C3E5G7HA',
  'unleash-client-spec': '5.2.2',
};

export const edgeSamples = defineSamples(edgeRoutes, {
  // Edge at startup: no Authorization; only the valid tokens come back.
  'validate-tokens': {
    operation: 'validateEdgeTokens',
    body: { tokens: ['{{ADMIN_TOKEN}}', 'default:development.not-a-token-{{UNIQUE}}'] },
    headers: EDGE,
    status: 200,
  },
  'validate-too-many-tokens': {
    operation: 'validateEdgeTokens',
    body: { tokens: Array.from({ length: 101 }, (_, index) => `default:development.unknown-${index}`) },
    headers: EDGE,
    status: 400,
  },
  'bulk-metrics': {
    operation: 'reportBulkMetrics',
    body: {
      applications: [{
        appName: 'sample-app', instanceId: 'sample-instance', connectionId: '3f2b6c1e-8d4a-4b7e-9c2d-5a6b7c8d9e0f',
        environment: 'development', interval: 15000, started: '2026-11-22T03:00:00.000Z', strategies: ['default', 'flexibleRollout'],
        sdkVersion: 'unleash-node-sdk:6.12.1', sdkType: 'backend', connectVia: [{ appName: 'unleash-edge', instanceId: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9' }],
      }],
      metrics: [{
        featureName: 'sample-feature-{{UNIQUE}}', appName: 'sample-app', environment: 'development',
        timestamp: '2026-11-22T03:00:00.000Z', yes: 3, no: 1, variants: { blue: 3 },
        sdkVersion: 'unleash-node-sdk:6.12.1', sdkType: 'backend', yggdrasilVersion: null, platformName: null, platformVersion: null,
      }],
    },
    headers: EDGE,
    status: 202,
  },
  'edge-instance': {
    operation: 'reportEdgeInstance',
    body: {
      identifier: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9', appName: 'unleash-edge', region: null, edgeVersion: '20.1.0', processMetrics: null,
      started: '2026-11-22T03:00:00.000Z', traffic: { cachedResponses: {}, get: {}, post: {}, accessDenied: {} },
      latencyUpstream: { features: { avg: 0, count: 0, p99: 0 }, metrics: { avg: 0, count: 0, p99: 0 }, edge: { avg: 0, count: 0, p99: 0 } },
      requestsSinceLastReport: {}, connectedStreamingClients: 0, connectedEdges: [],
    },
    headers: EDGE,
    status: 202,
  },
});
