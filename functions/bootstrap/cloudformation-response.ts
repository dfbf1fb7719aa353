import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export type ResourceStatus = 'SUCCESS' | 'FAILED';

export interface ResourceOutcome {
  status: ResourceStatus;
  /** Shown in the stack's events; must never contain a secret. */
  reason: string;
  /** By default the event's own (on Create, PHYSICAL_RESOURCE_ID). */
  physicalResourceId?: string;
}

/**
 * The physical id of a resource that stored no token (a failed Create), and of every resource
 * created before ids named their token (`physicalIdOf`): it names no token, so a Delete for it
 * removes nothing.
 */
export const PHYSICAL_RESOURCE_ID = 'bootstrap-admin-token';

const TOKEN_ID = /^[0-9a-f]{16}$/;

/**
 * The physical id names the token the resource stored, by its public id (a prefix of the
 * hash, never the secret). A new secret makes a new token and so a new id: CloudFormation
 * takes the Update for a replacement and, once the whole stack update has succeeded, sends a
 * Delete for the old id, which removes the previous token. An update that rolls back sends no
 * such Delete, so the token in use is never removed early.
 */
export function physicalIdOf(tokenId: string): string {
  return `${PHYSICAL_RESOURCE_ID}/${tokenId}`;
}

/** The token id a physical id names, if it names one. */
export function tokenIdOfPhysicalId(physicalResourceId: string): string | undefined {
  const prefix = `${PHYSICAL_RESOURCE_ID}/`;
  if (!physicalResourceId.startsWith(prefix)) return undefined;
  const tokenId = physicalResourceId.slice(prefix.length);
  return TOKEN_ID.test(tokenId) ? tokenId : undefined;
}

/**
 * Answers CloudFormation by PUTting the result to the pre-signed S3 URL of the event. Until
 * this arrives the stack waits (up to an hour), so every path through the handler ends here.
 */
export async function sendCloudFormationResponse(
  event: CloudFormationCustomResourceEvent,
  outcome: ResourceOutcome,
): Promise<void> {
  const body = JSON.stringify({
    Status: outcome.status,
    Reason: outcome.reason,
    PhysicalResourceId: outcome.physicalResourceId ?? ('PhysicalResourceId' in event ? event.PhysicalResourceId : PHYSICAL_RESOURCE_ID),
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    NoEcho: true,
    Data: {},
  });
  const response = await fetch(event.ResponseURL, {
    method: 'PUT',
    // The URL is signed without a content type; fetch would otherwise add text/plain.
    headers: { 'content-type': '' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    throw new Error(`CloudFormation did not accept the response: HTTP ${response.status}`);
  }
}
