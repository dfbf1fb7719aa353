import { defineSamples } from '../samples.js';
import { transferRoutes } from './routes.js';

/** One feature with a strategy and a tag, in the export's own shape, as `validate` and `import` take it. */
const IMPORT = {
  features: [
    {
      name: 'sample-imported',
      description: 'Came in through an import',
      type: 'release',
      stale: false,
      impressionData: false,
      archived: false,
    },
  ],
  featureStrategies: [
    {
      name: 'flexibleRollout',
      featureName: 'sample-imported',
      parameters: { rollout: '25', stickiness: 'default', groupId: 'sample-imported' },
      constraints: [],
      variants: [],
      segments: [],
    },
  ],
  featureEnvironments: [
    { enabled: true, featureName: 'sample-imported', environment: 'development', variants: [] },
  ],
  contextFields: [],
  featureTags: [{ featureName: 'sample-imported', tagType: 'simple', tagValue: 'imported' }],
  segments: [],
  tagTypes: [{ name: 'simple' }],
  dependencies: [],
};

export const transferSamples = defineSamples(transferRoutes, {
  'export-project': {
    operation: 'exportFeatures',
    body: { environment: 'development', project: 'default' },
    status: 200,
  },
  'validate-import': {
    operation: 'validateImport',
    body: { project: 'default', environment: 'development', data: IMPORT },
    status: 200,
  },
  'import-into-default': {
    operation: 'importFeatures',
    body: { project: 'default', environment: 'development', data: IMPORT },
    status: 200,
  },
});
