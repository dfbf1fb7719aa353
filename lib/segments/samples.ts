import { defineSamples } from '../samples.js';
import { segmentRoutes } from './routes.js';

export const segmentSamples = defineSamples(segmentRoutes, {
  'create-segment': {
    operation: 'createSegment',
    body: {
      name: 'sample-beta-testers-{{UNIQUE}}',
      description: 'Opted-in beta users',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-1001', 'u-1002'] }],
    },
    status: 201,
    provides: { SEGMENT_ID: 'id' },
  },
  'create-segment-bad-constraint': {
    operation: 'createSegment',
    body: {
      name: 'sample-bad',
      constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: 'v2' }],
    },
    status: 400,
  },
  'list-segments': { operation: 'listSegments', status: 200 },
  'validate-segment-name': { operation: 'validateSegmentName', body: { name: 'sample-unused-{{UNIQUE}}' }, status: 204 },
  'get-segment': {
    operation: 'getSegment',
    params: { id: '{{SEGMENT_ID}}' },
    status: 200,
    given: ['features/create-segment'],
  },
  'list-segment-strategies': {
    operation: 'listSegmentStrategies',
    params: { id: '{{SEGMENT_ID}}' },
    status: 200,
    given: ['features/create-segment'],
  },
  'list-strategy-segments': {
    operation: 'listStrategySegments',
    params: { strategyId: '00000000-0000-4000-8000-000000000000' },
    status: 200,
  },
  'update-segment': {
    operation: 'updateSegment',
    params: { id: '{{SEGMENT_ID}}' },
    body: {
      name: 'sample-beta-testers-{{UNIQUE}}',
      description: 'Opted-in beta users',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-1001', 'u-1002', 'u-1003'] }],
    },
    status: 204,
    given: ['features/create-segment'],
  },
  'delete-segment': {
    operation: 'deleteSegment',
    params: { id: '{{SEGMENT_ID}}' },
    status: 204,
    given: ['features/create-segment'],
  },
});
