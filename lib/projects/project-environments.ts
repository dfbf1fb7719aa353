import { environmentNotFound } from '../environments/model.js';
import type { EnvironmentStore } from '../environments/store.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { Constraint } from '../features/model.js';
import type { DefaultStrategy } from './model.js';
import { projectNotFound } from './project-service.js';
import type { ProjectStore } from './store.js';

export interface DefaultStrategyInput {
  name: string;
  title?: string | null | undefined;
  constraints?: Constraint[] | undefined;
  parameters?: Record<string, string> | undefined;
}

/** Which environments a project uses, and the strategy `/on` adds in each. */
export class ProjectEnvironmentService {
  constructor(
    private readonly projects: ProjectStore,
    private readonly environments: EnvironmentStore,
    /** Whether a built-in or custom strategy type has the name. */
    private readonly strategyTypeExists: (name: string) => Promise<boolean>,
  ) {}

  async add(projectId: string, environment: string, actor: string): Promise<void> {
    const outcome = await this.projects.addEnvironment(projectId, environment, actor);
    if (outcome === 'project-missing') throw projectNotFound(projectId);
    if (outcome === 'environment-missing') throw environmentNotFound(environment);
    if (outcome === 'already-added') {
      throw new Conflict(`The environment ${environment} is already added to the project ${projectId}`);
    }
  }

  async remove(projectId: string, environment: string, actor: string): Promise<void> {
    const outcome = await this.projects.removeEnvironment(projectId, environment, actor);
    if (outcome === 'project-missing') throw projectNotFound(projectId);
    if (outcome === 'not-added') {
      throw new NotFound(`The environment ${environment} is not added to the project ${projectId}`);
    }
    if (outcome === 'last-environment') throw new ValidationFailed('You must always have one active environment');
  }

  async setDefaultStrategy(projectId: string, environment: string, input: DefaultStrategyInput, actor: string): Promise<DefaultStrategy> {
    await this.checkStrategyType(input.name);
    const strategy: DefaultStrategy = {
      name: input.name,
      title: input.title ?? null,
      constraints: input.constraints ?? [],
      parameters: input.parameters ?? {},
    };
    if (await this.projects.setDefaultStrategy(projectId, environment, strategy, actor)) return strategy;
    // The write names no reason for refusing; reading once tells the caller which one it was.
    const stored = await this.projects.get(projectId);
    if (!stored) throw projectNotFound(projectId);
    if (!(await this.environments.get(environment))) throw environmentNotFound(environment);
    throw new ValidationFailed(`You have not added the environment ${environment} to the project ${projectId}`);
  }

  private async checkStrategyType(name: string): Promise<void> {
    if (!(await this.strategyTypeExists(name))) throw new ValidationFailed(`name: Could not find strategy type with name ${name}`);
  }
}
