import { MASKED_VALUE, providerNamed, sensitiveParameters } from './providers.js';
import type { Sealer, StoredIntegration } from './store.js';

/** Bound to every sealed parameter, so a value sealed for another field cannot be swapped in. */
const purposeOf = (integrationId: number, name: string) => `integration:${integrationId}:${name}`;

/** Splits parameters into those kept as they are and the sensitive ones, sealed. */
export async function sealParameters(
  integrationId: number, provider: string, parameters: Record<string, string>, sealer: Sealer,
): Promise<Pick<StoredIntegration, 'parameters' | 'sealedParameters'>> {
  const definition = providerNamed(provider);
  const sensitive = definition ? sensitiveParameters(definition) : new Set<string>();
  const plain: Record<string, string> = {};
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (sensitive.has(name)) sealed[name] = await sealer.seal(value, purposeOf(integrationId, name));
    else plain[name] = value;
  }
  return { parameters: plain, sealedParameters: sealed };
}

export async function openParameters(stored: StoredIntegration, sealer: Sealer): Promise<Record<string, string>> {
  const opened: Record<string, string> = { ...stored.parameters };
  for (const [name, value] of Object.entries(stored.sealedParameters)) opened[name] = await sealer.open(value, purposeOf(stored.id, name));
  return opened;
}

/** Every parameter as the admin API answers it: the sensitive ones as the mask. */
export function maskedParameters(stored: StoredIntegration): Record<string, string> {
  return { ...stored.parameters, ...Object.fromEntries(Object.keys(stored.sealedParameters).map((name) => [name, MASKED_VALUE])) };
}
