import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * The key material that seals stored secrets (the OIDC client secret, `lib/secrets/`).
 * CloudFormation generates it, so no value is in the template or in a function's settings; the
 * functions that seal or open secrets get its ARN as SECRET_KEY_ARN and read it with the SDK
 * (lib/secrets/secret-source.ts: no layer, so no region map). See
 * docs/adr/0006-access-administration.md.
 */
export class SecretKey extends Construct {
  readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Key material that encrypts secrets stored in the toggles table (such as the OIDC client secret)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      // Values sealed with it live in the table, which is retained; without the key they are lost.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Values sealed with this key are stored in the table; an automatic rotation would make them unreadable. ' +
        'To replace the key, put a new value and save the OIDC settings again (docs/adr/0006-access-administration.md).',
    });
  }
}
