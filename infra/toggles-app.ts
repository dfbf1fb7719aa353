import { App, type AppProps } from 'aws-cdk-lib';
import { addNagChecks } from './nag.js';
import { TogglesStack } from './toggles-stack.js';

export const STACK_NAME = 'ServerlessToggles';

/**
 * Builds the CDK app. `infra/app.ts` (the `cdk` entry) and the stack tests both come through
 * here, so the tests synthesize exactly what `cdk synth` does, cdk-nag included.
 */
export function createTogglesApp(props: AppProps = {}): { app: App; stack: TogglesStack } {
  const app = new App(props);
  const unleashUrl: unknown = app.node.tryGetContext('unleashUrl');
  const stack = new TogglesStack(app, STACK_NAME, {
    description: 'Serverless feature toggles speaking the Unleash API',
    ...(typeof unleashUrl === 'string' && unleashUrl.length > 0 ? { unleashUrl } : {}),
  });
  addNagChecks(app);
  return { app, stack };
}
