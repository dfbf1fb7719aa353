import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { loadConfig } from '../../lib/config.js';
import { createComposition } from '../../lib/composition/composition.js';
import { apiTokens } from '../../lib/composition/slices/api-tokens.js';
import { instance } from '../../lib/composition/slices/instance.js';
import { users } from '../../lib/composition/slices/users.js';
import { featureStore } from '../../lib/composition/stores.js';
import { readSecretString } from '../../lib/secrets/secret-source.js';
import {
  applyBootstrapTokens,
  bootstrapTokenId,
  removeBootstrapToken,
  type BootstrapRemoval,
  type BootstrapResult,
} from '../../lib/tokens/bootstrap.js';
import type { MakeCopiesOutcome } from '../../lib/features/dynamo-project-copies.js';
import { log } from '../../lib/log.js';
import { ensureFirstAdmin } from '../../lib/auth/first-admin.js';
import { physicalIdOf, sendCloudFormationResponse, tokenIdOfPhysicalId, type ResourceOutcome } from './cloudformation-response.js';

/**
 * The cloud stack's bootstrap: a CloudFormation custom resource that turns the generated
 * Secrets Manager secret into the admin token `*:*.<secret>` and stores it (hashed) the same
 * way `INIT_ADMIN_API_TOKENS` does locally. The secret's value never passes through the
 * template or any environment variable; see docs/adr/0002-bootstrap-admin-token.md.
 *
 * Rotation: the resource's physical id names the token it stored (`physicalIdOf`). A new
 * secret value makes a new token and a new id, so CloudFormation sends a Delete for the old id
 * after the update has succeeded, and that Delete removes the old token. The Delete that comes
 * with deleting the stack names the token of the current secret, which is kept: tokens are
 * data and stay with the retained table.
 */

export const ADMIN_TOKEN_PREFIX = '*:*.';

export interface AdminTokenBootstrap {
  readAdminSecret(): Promise<string>;
  applyAdminToken(token: string): Promise<BootstrapResult>;
  /**
   * Removes the admin token an earlier bootstrap stored, by id; never a token a person made
   * (`removeBootstrapToken`). Left out by tests that only create, where a Delete removes nothing.
   */
  removeAdminToken?(tokenId: string): Promise<BootstrapRemoval>;
  /**
   * Writes the first start's data (project `default`, environments, context fields, tag type)
   * unless an earlier deployment did; answers whether this call wrote it. Left out by the
   * protocol tests, which have no table.
   */
  seedFirstStart?(): Promise<boolean>;
  /**
   * Gives the features of a table from before ADR 17 their copies in their projects' partitions,
   * within the time left. Left out by the protocol tests.
   */
  makeProjectCopies?(): Promise<MakeCopiesOutcome>;
  /**
   * Makes the first admin user on a table with no user, with the generated password kept in
   * Secrets Manager; answers whether it made one. Left out by the protocol tests.
   */
  ensureFirstAdmin?(): Promise<boolean>;
}

/**
 * A migration that did not finish (a large table, a throttle) never fails the deployment: readers
 * of one project read every feature until it has, and the next deployment continues it.
 */
async function makeProjectCopies(bootstrap: AdminTokenBootstrap): Promise<void> {
  try {
    const outcome = await bootstrap.makeProjectCopies?.();
    if (outcome) log.info('Project copies of the features (ADR 17)', outcome);
  } catch (error) {
    log.warn('Project copies of the features (ADR 17) not finished; the next deployment continues', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
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
  if (event.RequestType === 'Delete') return removeReplacedToken(event.PhysicalResourceId, dependencies);
  let secret: string | undefined;
  try {
    const bootstrap = dependencies();
    // The seed comes first, so the API the token opens already has its default project.
    const seeded = (await bootstrap.seedFirstStart?.()) ?? false;
    await makeProjectCopies(bootstrap);
    const adminUserCreated = (await bootstrap.ensureFirstAdmin?.()) ?? false;
    secret = await bootstrap.readAdminSecret();
    const token = `${ADMIN_TOKEN_PREFIX}${secret}`;
    const result = await bootstrap.applyAdminToken(token);
    const physicalResourceId = physicalIdOf(bootstrapTokenId(token));
    const replaced = event.RequestType === 'Update' && event.PhysicalResourceId !== physicalResourceId;
    log.info('Bootstrap admin token applied', { requestType: event.RequestType, seeded, adminUserCreated, ...result, physicalResourceId, replaced });
    const stored = result.inserted > 0 ? 'Admin token stored' : 'Admin token already present';
    return {
      status: 'SUCCESS',
      reason: replaced && tokenIdOfPhysicalId(event.PhysicalResourceId) ? `${stored}; the previous one is removed once the update completes` : stored,
      physicalResourceId,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Belt and braces: no error text may carry the secret into the stack events or the logs.
    const reason = secret ? message.split(secret).join('<secret>') : message;
    log.error('Bootstrap admin token failed', { reason });
    return { status: 'FAILED', reason: `Bootstrap admin token failed: ${reason}` };
  }
}

/**
 * A Delete names a token by its physical id. After a replacing update it is the previous
 * token, which goes; when the stack itself is deleted it is the token of the current secret,
 * which stays with the table. Anything uncertain keeps the token and still answers SUCCESS, so
 * a stack deletion or an update's cleanup never waits on this.
 */
async function removeReplacedToken(physicalResourceId: string, dependencies: () => AdminTokenBootstrap): Promise<ResourceOutcome> {
  const tokenId = tokenIdOfPhysicalId(physicalResourceId);
  // Tokens are data, and data outlives the stack like the table itself.
  if (!tokenId) return { status: 'SUCCESS', reason: 'Nothing deleted: API tokens are kept with the table' };
  let secret: string | undefined;
  try {
    const bootstrap = dependencies();
    if (!bootstrap.removeAdminToken) return { status: 'SUCCESS', reason: 'Nothing deleted: API tokens are kept with the table' };
    secret = await bootstrap.readAdminSecret();
    if (bootstrapTokenId(`${ADMIN_TOKEN_PREFIX}${secret}`) === tokenId) {
      log.info('Bootstrap admin token kept', { tokenId });
      return { status: 'SUCCESS', reason: `Admin token ${tokenId} kept: it is the current secret's, and tokens stay with the table` };
    }
    const removal = await bootstrap.removeAdminToken(tokenId);
    log.info('Replaced bootstrap admin token', { tokenId, removal });
    const reasons: Record<BootstrapRemoval, string> = {
      removed: `Previous admin token ${tokenId} removed`,
      absent: `Previous admin token ${tokenId} was already deleted`,
      'not-bootstrap': `Token ${tokenId} kept: it is not a bootstrap admin token`,
    };
    return { status: 'SUCCESS', reason: reasons[removal] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = secret ? message.split(secret).join('<secret>') : message;
    log.error('Bootstrap admin token not removed', { tokenId, reason });
    return {
      status: 'SUCCESS',
      reason: `Admin token ${tokenId} kept (${reason}); delete it with DELETE /api/admin/api-tokens/${tokenId} if it is no longer wanted`,
    };
  }
}

export const handler: BootstrapHandler = createBootstrapHandler(() => {
  const secretArn = process.env.ADMIN_TOKEN_SECRET_ARN;
  if (!secretArn) throw new Error('ADMIN_TOKEN_SECRET_ARN is not set');
  // Only what the bootstrap uses is built: the API tokens, the first start's data, the project copies and the users.
  const c = createComposition(loadConfig(process.env));
  const tokens = c.once(apiTokens).apiTokens;
  return {
    readAdminSecret: () => readSecretString(secretArn),
    applyAdminToken: (token) => applyBootstrapTokens(tokens, { admin: [token], client: [] }),
    removeAdminToken: (tokenId) => removeBootstrapToken(tokens, tokenId),
    seedFirstStart: () => c.once(instance).firstStart.ensure(),
    // API Gateway lets a request in flight on the code before this deployment run 30 s; the function
    // has 60 s, of which 40 go to the copies and the rest to the token and the answer.
    makeProjectCopies: () => c.once(featureStore).projectCopies.make({ settleMs: 30_000, deadline: Date.now() + 40_000 }),
    // The password is read at run time, as the token's secret is, and stored only as a hash.
    ensureFirstAdmin: async () => {
      const passwordArn = process.env.ADMIN_PASSWORD_SECRET_ARN;
      if (!passwordArn) return false;
      const password = await readSecretString(passwordArn);
      return (await ensureFirstAdmin(c.once(users).users, { username: c.config.defaultAdminUsername, password })).created;
    },
  };
});
