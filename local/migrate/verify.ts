/**
 * Verification: what an SDK would get from each side, compared. For every client token the
 * migration paired (the same secret on both sides, or the target's new one), both sides'
 * `/api/client/features`; for every frontend token, both sides' Frontend API for a set of
 * contexts. Normalised first (order, timestamps, ids, fields one side adds, a segment named by
 * its constraints rather than its id); any difference is reported with the flag and the field.
 * A scope no pair covers (a source that shows no secret) is checked with a temporary token of
 * that scope on each side, deleted afterwards.
 */
import type { AdminSide } from './http.js';
import type { TokenPair } from './model.js';
import { differences, normaliseConstraint, normaliseDependencies, normaliseParameters, normaliseVariant, stable, text, type WireConstraint, type WireDependency, type WireVariant } from './normalise.js';

export interface VerifyResult {
  differences: string[];
  /** Differences with a known cause on one side, listed with it; they do not fail the run. */
  explained: string[];
  clientTokens: number;
  frontendTokens: number;
  contexts: number;
  flagsCompared: number;
  requests: number;
}

interface ClientStrategy { name: string; parameters?: Record<string, unknown>; constraints?: WireConstraint[]; segments?: number[]; variants?: WireVariant[] }
interface ClientFeature {
  name: string; enabled: boolean; type?: string; project?: string; stale?: boolean; impressionData?: boolean; description?: string | null;
  strategies?: ClientStrategy[]; variants?: WireVariant[]; dependencies?: WireDependency[];
}
interface ClientPayload { features: ClientFeature[]; segments?: Array<{ id: number; constraints: WireConstraint[] }> }

export function normaliseClientPayload(payload: ClientPayload): Map<string, unknown> {
  const segments = new Map((payload.segments ?? []).map((segment) => [segment.id, stable(segment.constraints.map(normaliseConstraint))]));
  return new Map(payload.features.map((feature) => [feature.name, {
    enabled: feature.enabled,
    type: feature.type ?? 'release',
    project: feature.project ?? 'default',
    stale: feature.stale === true,
    impressionData: feature.impressionData === true,
    description: text(feature.description),
    strategies: (feature.strategies ?? []).map((strategy) => ({
      name: strategy.name,
      parameters: normaliseParameters(strategy.parameters),
      constraints: (strategy.constraints ?? []).map(normaliseConstraint),
      segments: (strategy.segments ?? []).map((id) => segments.get(id) ?? `missing segment #${id}`).sort(),
      variants: (strategy.variants ?? []).map(normaliseVariant),
    })),
    variants: (feature.variants ?? []).map(normaliseVariant),
    dependencies: normaliseDependencies(feature.dependencies),
  }]));
}

/** The differences between two sides' answers, one line per flag and field. */
export function compareAnswers(label: string, from: Map<string, unknown>, to: Map<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, left] of from) {
    const right = to.get(name);
    if (right === undefined) lines.push(`${label}: flag ${name}: missing on the target`);
    else for (const field of differences(left, right, '', 2)) lines.push(`${label}: flag ${name}: ${field} differs`);
  }
  for (const name of to.keys()) if (!from.has(name)) lines.push(`${label}: flag ${name}: only on the target`);
  return lines;
}

interface FrontendToggle { name: string; enabled: boolean; impressionData?: boolean; variant?: { name: string; enabled: boolean; payload?: { type: string; value: string } | null; feature_enabled?: boolean } }

function normaliseFrontend(answer: { toggles: FrontendToggle[] }): Map<string, unknown> {
  return new Map(answer.toggles.map((toggle) => [toggle.name, {
    enabled: toggle.enabled,
    impressionData: toggle.impressionData === true,
    variant: { name: toggle.variant?.name ?? 'disabled', enabled: toggle.variant?.enabled === true, payload: toggle.variant?.payload ?? null },
  }]));
}

/**
 * Contexts drawn from the source's context fields without randomness: users and sessions by
 * number, each field with legal values cycling through them, dates either side of now.
 */
export async function contextsOf(from: AdminSide, count = 12): Promise<Array<Record<string, unknown>>> {
  const fields = await from.request<Array<{ name: string; legalValues?: Array<{ value: string }> }>>('GET', '/api/admin/context');
  const custom = fields.filter((field) => !['environment', 'userId', 'appName', 'currentTime', 'sessionId', 'remoteAddress'].includes(field.name));
  return Array.from({ length: count }, (_, index) => {
    const properties: Record<string, string> = {};
    for (const field of custom) {
      const values = field.legalValues?.map((legal) => legal.value) ?? [];
      properties[field.name] = values.length > 0 ? values[index % values.length] as string : ['pro', 'enterprise', '7', '2.3.4'][index % 4] as string;
    }
    return {
      userId: ['alice', 'bob', 'carol', '7', '42', 'dave'][index % 6],
      sessionId: `session-${index}`,
      appName: index % 3 === 0 ? 'web' : `app-${index}`,
      remoteAddress: index % 2 === 0 ? '10.0.0.1' : '192.168.1.20',
      properties,
    };
  });
}

/**
 * As the official SDKs call: the specification version they support decides whether Unleash
 * answers segments by id beside the features or copies their constraints into each strategy.
 */
const sdk = (token: string) => ({ token, headers: { 'unleash-client-spec': '5.2.0', 'unleash-appname': 'migrate-verify' } });

export async function verify(from: AdminSide, to: AdminSide, pairs: TokenPair[]): Promise<VerifyResult> {
  const before = from.requests() + to.requests();
  const temporary = await temporaryPairs(from, to, pairs);
  const all = [...pairs, ...temporary.pairs];
  const lines: string[] = [];
  let flagsCompared = 0;
  const explained: string[] = [];
  /** The source's SDK answer of every project per environment, to explain a Frontend API difference by. */
  const payloads = new Map<string, ClientPayload>();
  const contexts = await contextsOf(from);
  try {
    for (const pair of all.filter((p) => p.type === 'client')) {
      const payload = await from.request<ClientPayload>('GET', '/api/client/features', undefined, sdk(pair.fromSecret));
      if (pair.projects.join() === '*' && !payloads.has(pair.environment)) payloads.set(pair.environment, payload);
      const left = normaliseClientPayload(payload);
      const right = normaliseClientPayload(await to.request('GET', '/api/client/features', undefined, sdk(pair.toSecret)));
      flagsCompared += left.size;
      lines.push(...compareAnswers(`client token ${pair.tokenName} (${pair.environment})`, left, right));
    }
    for (const pair of all.filter((p) => p.type === 'frontend')) {
      for (const [index, context] of contexts.entries()) {
        const body = { context: { ...context, environment: pair.environment } };
        const left = normaliseFrontend(await from.request('POST', '/api/frontend', body, sdk(pair.fromSecret)));
        const right = normaliseFrontend(await to.request('POST', '/api/frontend', body, sdk(pair.toSecret)));
        flagsCompared += left.size;
        for (const line of compareAnswers(`frontend token ${pair.tokenName} (${pair.environment}), context ${index}`, left, right)) {
          const cause = frontendCause(line, payloads.get(pair.environment));
          if (cause === undefined) lines.push(line);
          else explained.push(`${line}: ${cause}`);
        }
      }
    }
  } finally {
    await temporary.remove();
  }
  return {
    differences: lines,
    explained,
    clientTokens: all.filter((p) => p.type === 'client').length,
    frontendTokens: all.filter((p) => p.type === 'frontend').length,
    contexts: contexts.length,
    flagsCompared,
    requests: from.requests() + to.requests() - before,
  };
}

/**
 * Unleash 7.6.5's Frontend API evaluates only the features on in the token's environment (its
 * read model selects those), so a child that requires its parent to be off is never on there,
 * while its SDK API lists the parent and every SDK (and this service's Frontend API) finds the
 * requirement met. A difference on such a flag is that, not a copy gone wrong: the client
 * answers, compared before, hold the same configuration on both sides.
 */
function frontendCause(line: string, payload: ClientPayload | undefined): string | undefined {
  const flag = /: flag (\S+): /.exec(line)?.[1];
  const feature = payload?.features.find((candidate) => candidate.name === flag);
  const offParent = feature?.dependencies?.find((dependency) =>
    dependency.enabled === false && payload!.features.some((parent) => parent.name === dependency.feature && !parent.enabled));
  return offParent === undefined ? undefined
    : `it requires ${offParent.feature} to be off, which it is; Unleash's Frontend API leaves features that are off out of its evaluation, so it never answers such a flag, where the SDKs do`;
}

/** A client and a frontend token per environment both sides have, for each one no pair covers. */
async function temporaryPairs(from: AdminSide, to: AdminSide, pairs: TokenPair[]) {
  const environmentsOf = async (side: AdminSide) =>
    (await side.request<{ environments: Array<{ name: string; enabled?: boolean }> }>('GET', '/api/admin/environments')).environments
      .filter((environment) => environment.enabled !== false).map((environment) => environment.name);
  const targetEnvironments = new Set(await environmentsOf(to));
  const made: Array<{ side: AdminSide; secret: string }> = [];
  const created: TokenPair[] = [];
  const remove = async () => {
    for (const { side, secret } of made) await side.request('DELETE', `/api/admin/api-tokens/${encodeURIComponent(secret)}`).catch(() => undefined);
  };
  try {
    for (const environment of (await environmentsOf(from)).filter((name) => targetEnvironments.has(name))) {
      for (const type of ['client', 'frontend'] as const) {
        if (pairs.some((pair) => pair.type === type && pair.environment === environment && pair.projects.join() === '*')) continue;
        const body = { tokenName: `migrate-verify-${type}-${environment}`, type, environment, projects: ['*'] };
        const fromSecret = (await from.request<{ secret: string }>('POST', '/api/admin/api-tokens', body)).secret;
        made.push({ side: from, secret: fromSecret });
        const toSecret = (await to.request<{ secret: string }>('POST', '/api/admin/api-tokens', body)).secret;
        made.push({ side: to, secret: toSecret });
        created.push({ tokenName: body.tokenName, type, environment, projects: ['*'], fromSecret, toSecret, sameSecret: false });
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { pairs: created, remove };
}
