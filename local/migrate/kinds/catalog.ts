/**
 * The catalogues features refer to, in the order they must exist: environments, projects,
 * custom strategy types, context fields, tag types and tags, segments; and the Frontend API's
 * CORS origins.
 */
import { encode } from '../http.js';
import type { Kind } from '../model.js';
import { normaliseConstraint, text, type WireConstraint } from '../normalise.js';
import { simpleKind } from '../simple-kind.js';

const byKey = <T>(items: T[], key: (item: T) => string) => new Map(items.map((item) => [key(item), item]));

interface Environment { name: string; type: string; enabled?: boolean; sortOrder?: number }

export const environments: Kind = simpleKind<Environment>({
  name: 'environments',
  read: async (side) => byKey((await side.request<{ environments: Environment[] }>('GET', '/api/admin/environments')).environments, (e) => e.name),
  // Sort orders are each server's own numbering (Unleash 2, 3; this service 100, 200): only the type is content.
  comparable: (environment) => ({ type: environment.type }),
  cannotCreate: 'the target makes no environments through its API (Unleash OSS keeps that for its Enterprise edition)',
  create: async (environment, { to }) => {
    await to.request('POST', '/api/admin/environments', { name: environment.name, type: environment.type });
  },
});

interface Project { id: string; name: string; description?: string | null }

export const projects: Kind = simpleKind<Project>({
  name: 'projects',
  read: async (side) => byKey((await side.request<{ projects: Project[] }>('GET', '/api/admin/projects')).projects, (p) => p.id),
  comparable: (project) => ({ name: project.name, description: text(project.description) }),
  cannotCreate: 'the target makes no projects through its API (Unleash OSS has only the default project): its features stay behind',
  create: async (project, { to }) => {
    await to.request('POST', '/api/admin/projects', { id: project.id, name: project.name, description: text(project.description) });
  },
  update: async (project, _, { to }) => {
    await to.request('PUT', `/api/admin/projects/${encode(project.id)}`, { id: project.id, name: project.name, description: text(project.description) });
  },
});

interface StrategyType {
  name: string;
  displayName?: string | null;
  description?: string | null;
  editable?: boolean;
  deprecated?: boolean;
  parameters: Array<{ name: string; type: string; description?: string; required?: boolean }>;
}

const strategyBody = (strategy: StrategyType) => ({
  name: strategy.name,
  ...(strategy.displayName ? { displayName: strategy.displayName } : {}),
  description: text(strategy.description),
  parameters: strategy.parameters.map((p) => ({ name: p.name, type: p.type, description: text(p.description), required: p.required === true })),
});

/** Custom strategy types only: the built-in ones are each server's own (this service keeps Unleash 4's deprecated ones). */
export const strategyTypes: Kind = simpleKind<StrategyType>({
  name: 'strategy types',
  read: async (side) => byKey(
    (await side.request<{ strategies: StrategyType[] }>('GET', '/api/admin/strategies')).strategies.filter((s) => s.editable !== false),
    (s) => s.name,
  ),
  comparable: (strategy) => ({ ...strategyBody(strategy), displayName: text(strategy.displayName) || strategy.name, deprecated: strategy.deprecated === true }),
  create: async (strategy, { to }) => {
    await to.request('POST', '/api/admin/strategies', strategyBody(strategy));
    if (strategy.deprecated) await to.request('POST', `/api/admin/strategies/${encode(strategy.name)}/deprecate`);
  },
  update: async (strategy, existing, { to }) => {
    await to.request('PUT', `/api/admin/strategies/${encode(strategy.name)}`, strategyBody(strategy));
    if (strategy.deprecated !== existing.deprecated) {
      await to.request('POST', `/api/admin/strategies/${encode(strategy.name)}/${strategy.deprecated ? 'deprecate' : 'reactivate'}`);
    }
  },
  prune: async (existing, { to }) => {
    await to.request('DELETE', `/api/admin/strategies/${encode(existing.name)}`);
  },
});

interface ContextField {
  name: string;
  description?: string | null;
  stickiness?: boolean;
  legalValues?: Array<{ value: string; description?: string | null }>;
}

/** The fields every server has from its first start; their descriptions are each server's own words. */
const BUILT_IN_CONTEXT = new Set(['environment', 'userId', 'appName', 'currentTime', 'sessionId', 'remoteAddress']);

const contextBody = (field: ContextField) => ({
  name: field.name,
  description: text(field.description),
  stickiness: field.stickiness === true,
  legalValues: (field.legalValues ?? []).map((legal) => ({ value: legal.value, ...(legal.description ? { description: legal.description } : {}) })),
});

export const contextFields: Kind = simpleKind<ContextField>({
  name: 'context fields',
  read: async (side) => byKey(await side.request<ContextField[]>('GET', '/api/admin/context'), (f) => f.name),
  comparable: (field) => {
    const body = contextBody(field);
    return {
      ...body,
      description: BUILT_IN_CONTEXT.has(field.name) ? '' : body.description,
      legalValues: [...body.legalValues].sort((a, b) => a.value.localeCompare(b.value)),
    };
  },
  create: async (field, { to }) => {
    await to.request('POST', '/api/admin/context', contextBody(field));
  },
  update: async (field, existing, { to }) => {
    const body = contextBody(field);
    await to.request('PUT', `/api/admin/context/${encode(field.name)}`, BUILT_IN_CONTEXT.has(field.name) ? { ...body, description: text(existing.description) } : body);
  },
  prune: async (existing, { to }) => {
    if (!BUILT_IN_CONTEXT.has(existing.name)) await to.request('DELETE', `/api/admin/context/${encode(existing.name)}`);
  },
});

interface TagType { name: string; description?: string | null; icon?: string | null }

export const tagTypes: Kind = simpleKind<TagType>({
  name: 'tag types',
  read: async (side) => byKey((await side.request<{ tagTypes: TagType[] }>('GET', '/api/admin/tag-types')).tagTypes, (t) => t.name),
  comparable: (tagType) => ({ description: text(tagType.description), icon: text(tagType.icon) }),
  create: async (tagType, { to }) => {
    await to.request('POST', '/api/admin/tag-types', { name: tagType.name, description: text(tagType.description), ...(tagType.icon ? { icon: tagType.icon } : {}) });
  },
  update: async (tagType, _, { to }) => {
    await to.request('PUT', `/api/admin/tag-types/${encode(tagType.name)}`, { description: text(tagType.description), ...(tagType.icon ? { icon: tagType.icon } : {}) });
  },
  prune: async (existing, { to }) => {
    await to.request('DELETE', `/api/admin/tag-types/${encode(existing.name)}`);
  },
});

interface Tag { type: string; value: string }

export const tags: Kind = simpleKind<Tag>({
  name: 'tags',
  read: async (side) => byKey((await side.request<{ tags: Tag[] }>('GET', '/api/admin/tags')).tags, (t) => `${t.type}:${t.value}`),
  comparable: () => ({}),
  create: async (tag, { to }) => {
    await to.request('POST', '/api/admin/tags', { type: tag.type, value: tag.value });
  },
});

interface Segment { id: number; name: string; description?: string | null; project?: string | null; constraints: WireConstraint[] }

const segmentBody = (segment: Segment) => ({
  name: segment.name,
  description: text(segment.description),
  ...(segment.project ? { project: segment.project } : {}),
  constraints: segment.constraints.map(normaliseConstraint),
});

/** Segments are matched by name: ids are each server's own, and the feature import maps a strategy's segments by name. */
export const segments: Kind = simpleKind<Segment>({
  name: 'segments',
  read: async (side) => byKey((await side.request<{ segments: Segment[] }>('GET', '/api/admin/segments')).segments, (s) => s.name),
  comparable: (segment) => ({ ...segmentBody(segment), project: segment.project ?? '' }),
  create: async (segment, { to }) => {
    await to.request('POST', '/api/admin/segments', segmentBody(segment));
  },
  update: async (segment, existing, { to }) => {
    await to.request('PUT', `/api/admin/segments/${existing.id}`, segmentBody(segment));
  },
  prune: async (existing, { to }) => {
    await to.request('DELETE', `/api/admin/segments/${existing.id}`);
  },
});

interface Cors { origins: string[] }

/** The origins browsers may call the Frontend API from: one item. */
export const corsOrigins: Kind = simpleKind<Cors>({
  name: 'CORS origins',
  read: async (side) => {
    const config = await side.request<{ frontendApiOrigins?: string[] }>('GET', '/api/admin/ui-config');
    return new Map([['frontendApiOrigins', { origins: [...(config.frontendApiOrigins ?? ['*'])].sort() }]]);
  },
  comparable: (cors) => cors.origins,
  create: async () => undefined,
  update: async (cors, _, { to }) => {
    await to.request('POST', '/api/admin/ui-config/cors', { frontendApiOrigins: cors.origins });
  },
});
