import { App, type AppProps, type Environment } from 'aws-cdk-lib';
import { addNagChecks } from './nag.js';
import { TogglesStack } from './toggles-stack.js';

export const STACK_NAME = 'ServerlessToggles';

export interface TogglesAppOptions {
  /**
   * Pins the stack to an account and region. `cdk deploy` leaves it out (the stack is
   * environment-agnostic, infra/app.ts); the region tests set it to synthesize the stack as
   * each region and partition would (test/infra/regions.test.ts).
   */
  env?: Environment;
}

/**
 * Builds the CDK app. `infra/app.ts` (the `cdk` entry) and the stack tests both come through
 * here, so the tests synthesize exactly what `cdk synth` does, cdk-nag included.
 */
export function createTogglesApp(props: AppProps = {}, options: TogglesAppOptions = {}): { app: App; stack: TogglesStack } {
  const app = new App(props);
  const unleashUrl: unknown = app.node.tryGetContext('unleashUrl');
  const stack = new TogglesStack(app, STACK_NAME, {
    description: 'Serverless feature toggles speaking the Unleash API',
    ...(options.env ? { env: options.env } : {}),
    ...(typeof unleashUrl === 'string' && unleashUrl.length > 0 ? { unleashUrl } : {}),
  });
  addNagChecks(app);
  return { app, stack };
}
