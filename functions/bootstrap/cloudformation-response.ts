import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export type ResourceStatus = 'SUCCESS' | 'FAILED';

export interface ResourceOutcome {
  status: ResourceStatus;
  /** Shown in the stack's events; must never contain a secret. */
  reason: string;
}

/** Stable, so an Update never looks like a replacement (which would send a Delete for the old id). */
export const PHYSICAL_RESOURCE_ID = 'bootstrap-admin-token';

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
    PhysicalResourceId: 'PhysicalResourceId' in event ? event.PhysicalResourceId : PHYSICAL_RESOURCE_ID,
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
