import { defineSamples } from '../samples.js';
import { playgroundRoutes } from './routes.js';

/** A fresh project (`projects/create-project`), so the sample evaluates a known, small set of flags whatever the table holds. */
const project = { given: ['projects/create-project'] };
const PROJECT = 'sample-project-{{UNIQUE}}';

export const playgroundSamples = defineSamples(playgroundRoutes, {
  'playground': {
    operation: 'evaluatePlayground',
    body: { environment: 'development', projects: [PROJECT], context: { appName: 'playground', userId: 'user-1', properties: { region: 'eu' } } },
    ...project,
    status: 200,
  },
  'playground-advanced': {
    operation: 'evaluateAdvancedPlayground',
    body: { environments: ['development', 'production'], projects: [PROJECT], context: { appName: 'playground', userId: 'user-1,user-2' } },
    ...project,
    status: 200,
  },
  'playground-no-app-name': {
    operation: 'evaluatePlayground',
    body: { environment: 'development', context: { userId: 'user-1' } },
    status: 400,
  },
});
