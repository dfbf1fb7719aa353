import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { loadConfig } from '../../lib/config.js';
import { createServices } from '../../lib/composition/services.js';
import { readSecretString } from '../../lib/secrets/secret-source.js';
import { applyBootstrapTokens, type BootstrapResult } from '../../lib/tokens/bootstrap.js';
import { log } from '../../lib/log.js';
import { sendCloudFormationResponse, type ResourceOutcome } from './cloudformation-response.js';

/**
 * The cloud stack's bootstrap: a CloudFormation custom resource that turns the generated
 * Secrets Manager secret into the admin token `*:*.<secret>` and stores it (hashed) the same
 * way `INIT_ADMIN_API_TOKENS` does locally. The secret's value never passes through the
 * template or any environment variable; see docs/adr/0002-bootstrap-admin-token.md.
 */

export const ADMIN_TOKEN_PREFIX = '*:*.';

export interface AdminTokenBootstrap {
  readAdminSecret(): Promise<string>;
  applyAdminToken(token: string): Promise<BootstrapResult>;
  /**
   * Writes the first start's data (project `default`, environments, context fields, tag type)
   * unless an earlier deployment did; answers whether this call wrote it. Left out by the
   * protocol tests, which have no table.
   */
  seedFirstStart?(): Promise<boolean>;
}

export type BootstrapHandler = (event: CloudFormationCustomResourceEvent) => Promise<void>;

/** `dependencies` is called per event inside the error boundary, so bad configuration answers FAILED. */
export function createBootstrapHandler(dependencies: () => AdminTokenBootstrap): BootstrapHandler {
  return async (event) => {
    const outcome = await bootstrap(event, dependencies);
    await sendCloudFormationResponse(event, outcome);
  };
}

async function bootstrap(
  event: CloudFormationCustomResourceEvent,
  dependencies: () => AdminTokenBootstrap,
): Promise<ResourceOutcome> {
  if (event.RequestType === 'Delete') {
    // Tokens are data, and data outlives the stack like the table itself.
    return { status: 'SUCCESS', reason: 'Nothing deleted: API tokens are kept with the table' };
  }
  let secret: string | undefined;
  try {
    const bootstrap = dependencies();
    // The seed comes first, so the API the token opens already has its default project.
    const seeded = (await bootstrap.seedFirstStart?.()) ?? false;
    secret = await bootstrap.readAdminSecret();
    const result = await bootstrap.applyAdminToken(`${ADMIN_TOKEN_PREFIX}${secret}`);
    log.info('Bootstrap admin token applied', { requestType: event.RequestType, seeded, ...result });
    return { status: 'SUCCESS', reason: result.inserted > 0 ? 'Admin token stored' : 'Admin token already present' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Belt and braces: no error text may carry the secret into the stack events or the logs.
    const reason = secret ? message.split(secret).join('<secret>') : message;
    log.error('Bootstrap admin token failed', { reason });
    return { status: 'FAILED', reason: `Bootstrap admin token failed: ${reason}` };
  }
}

export const handler: BootstrapHandler = createBootstrapHandler(() => {
  const secretArn = process.env.ADMIN_TOKEN_SECRET_ARN;
  if (!secretArn) throw new Error('ADMIN_TOKEN_SECRET_ARN is not set');
  const services = createServices(loadConfig(process.env));
  return {
    readAdminSecret: () => readSecretString(secretArn),
    applyAdminToken: (token) => applyBootstrapTokens(services.apiTokens, { admin: [token], client: [] }),
    seedFirstStart: () => services.firstStart.ensure(),
  };
});
