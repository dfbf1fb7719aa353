import { GROUPS, type Group } from '../lib/http/route.js';
import type { Composition } from '../lib/composition/composition.js';
import { groupHandlerOf, type FunctionDefinition, type LambdaHandler } from '../lib/composition/function-handler.js';
import { definition as access } from './access/handler.js';
import { definition as client } from './client/handler.js';
import { definition as features } from './features/handler.js';
import { definition as frontend } from './frontend/handler.js';
import { definition as groups } from './groups/handler.js';
import { definition as instance } from './instance/handler.js';
import { definition as projects } from './projects/handler.js';
import { definition as state } from './state/handler.js';
import { definition as strategies } from './strategies/handler.js';

/**
 * Every function's definition, for the processes that serve all groups at once (the local
 * server, `npm run invoke`, tests): each group's slices composed on one composition. Each
 * Lambda imports only its own group's module.
 */
export const functionDefinitions: { [G in Group]: FunctionDefinition & { group: G } } = {
  groups,
  strategies,
  features,
  projects,
  state,
  access,
  instance,
  client,
  frontend,
} as { [G in Group]: FunctionDefinition & { group: G } };

/** Every group's handler on one composition: the local server's, `npm run invoke`'s and the tests' single process. */
export function everyGroupHandler(composition: Composition): Record<Group, LambdaHandler> {
  return Object.fromEntries(GROUPS.map((group) => [group, groupHandlerOf(functionDefinitions[group], composition)])) as Record<Group, LambdaHandler>;
}
