import { randomUUID } from 'node:crypto';
import { NotFound, PermissionDenied, ValidationFailed } from '../errors.js';
import { type FeatureAggregates, replaced } from './aggregate.js';
import { type Feature, type FeatureLink, MAX_FEATURE_LINKS } from './model.js';

export interface LinkInput {
  url: string;
  title?: string | null | undefined;
}

/**
 * Unleash 7's flag links: up to ten links to issues, code or dashboards on a flag, kept on the
 * feature aggregate, each change with its own event (feature-link-added, -updated, -removed).
 */
export class FeatureLinkService {
  constructor(private readonly aggregates: FeatureAggregates) {}

  async add(projectId: string, featureName: string, input: LinkInput, actor: string): Promise<FeatureLink> {
    const link: FeatureLink = { id: randomUUID(), url: normalisedUrl(input.url), title: input.title ?? null };
    return this.change(projectId, featureName, actor, (links) => {
      if (links.length >= MAX_FEATURE_LINKS) {
        throw new PermissionDenied('UPDATE_FEATURE', `Too many links (${MAX_FEATURE_LINKS}) exist for this feature`);
      }
      return { links: [...links, link], result: link };
    });
  }

  async update(projectId: string, featureName: string, id: string, input: LinkInput, actor: string): Promise<FeatureLink> {
    const link: FeatureLink = { id, url: normalisedUrl(input.url), title: input.title ?? null };
    return this.change(projectId, featureName, actor, (links) => {
      if (!links.some((known) => known.id === id)) throw linkNotFound(id);
      return { links: links.map((known) => (known.id === id ? link : known)), result: link };
    });
  }

  async remove(projectId: string, featureName: string, id: string, actor: string): Promise<void> {
    await this.change(projectId, featureName, actor, (links) => {
      if (!links.some((known) => known.id === id)) throw linkNotFound(id);
      return { links: links.filter((known) => known.id !== id), result: undefined };
    });
  }

  private change<T>(projectId: string, featureName: string, actor: string, edit: (links: FeatureLink[]) => { links: FeatureLink[]; result: T }): Promise<T> {
    return this.aggregates.apply(actor, async (read) => {
      const before: Feature = await this.aggregates.activeFeature(projectId, featureName, read);
      const { links, result } = edit(before.links ?? []);
      return { commit: { writes: [replaced(before, { ...before, links })] }, result };
    });
  }
}

const linkNotFound = (id: string) => new NotFound(`Could not find link with id ${id}`);

/**
 * A link as Unleash stores it: `https://` when no scheme is given, the host in lower case
 * without `www.`, no trailing slash. Only web addresses are kept: the UI renders a link as an
 * anchor, and a `javascript:` or `data:` address there would run in an admin's session.
 */
export function normalisedUrl(text: string): string {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z\d+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ValidationFailed(`url: Invalid URL: ${text}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    throw new ValidationFailed(`url: Invalid URL: ${text} (only http and https addresses are kept)`);
  }
  url.hostname = url.hostname.replace(/^www\./, '');
  const normalised = url.toString();
  return normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}
