import type { Group } from '../http/route.js';

/**
 * How each endpoint group is presented to people: the OpenAPI tags (the headings Swagger UI
 * shows) and the README's endpoint map both come from here, in this order.
 */
export const GROUP_HEADINGS: Record<Group, { name: string; description: string }> = {
  instance: { name: 'Instance', description: 'Health, UI configuration, insights, and this API description' },
  client: { name: 'Client', description: 'The SDK API: what the official Unleash SDKs poll and report to' },
  frontend: { name: 'Frontend', description: 'The Frontend API: what browser and mobile SDKs call, with a frontend token' },
  features: {
    name: 'Features',
    description:
      'Features with their strategies, variants, dependencies and tags; segments, context fields and tag types; ' +
      'export and import',
  },
  projects: { name: 'Projects', description: 'Projects and environments' },
  strategies: { name: 'Strategies', description: 'Strategy types: the activation strategies features can use' },
  access: { name: 'Access', description: 'API tokens, users, login settings and signup tokens' },
  groups: { name: 'Groups', description: 'User groups' },
  state: { name: 'State', description: 'The whole state in one document (deprecated; use the feature export)' },
};

export const HEADING_ORDER = Object.keys(GROUP_HEADINGS) as Group[];
