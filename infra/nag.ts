import { Validations, type Stage } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * cdk-nag's AwsSolutions pack runs on every synthesis, in `cdk synth` and in the stack tests
 * alike; an unacknowledged finding fails both. Each acknowledgement sits on the construct it
 * concerns, with its reason.
 */
export function addNagChecks(scope: Stage): void {
  Validations.of(scope).addPlugins(new AwsSolutionsChecks(scope));
}
