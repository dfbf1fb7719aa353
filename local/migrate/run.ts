/**
 * `npm run migrate`: from one Unleash-speaking server to another through their admin APIs. Each
 * kind is planned (both sides read, compared) and then applied before the next kind is planned,
 * since later kinds refer to what earlier ones wrote (segments by id, group members by user).
 * Nothing is deleted without `prune`; a dry run only plans; a failed item is reported and the
 * others go on, and a second run finds what the first wrote the same and finishes the rest.
 * The run ends with the verification (verify.ts) unless it was a dry run.
 */
import { adminSide, type AdminSide } from './http.js';
import { contextFields, corsOrigins, environments, projects, segments, strategyTypes, tags, tagTypes } from './kinds/catalog.js';
import { features } from './kinds/features.js';
import { groups, singleSignOn, users } from './kinds/people.js';
import { tokens } from './kinds/tokens.js';
import { StepSkipped, type Kind, type MigrationContext, type Step, type TokenPair } from './model.js';
import { messageOf, progressFor } from './progress.js';
import { verify, type VerifyResult } from './verify.js';

export interface MigrateOptions {
  from: string;
  fromToken: string;
  to: string;
  toToken: string;
  dryRun?: boolean;
  prune?: boolean;
  verifyOnly?: boolean;
  /** Where progress and the report go; a terminal gets a progress bar. */
  write?: (text: string) => void;
  terminal?: boolean;
}

export interface KindReport {
  kind: string;
  same: number;
  created: string[];
  updated: Array<{ key: string; fields: string }>;
  pruned: string[];
  planned: Array<{ key: string; action: string; detail?: string }>;
  skipped: Array<{ key: string; reason: string }>;
  failed: Array<{ key: string; error: string }>;
}

export interface MigrationReport {
  ok: boolean;
  dryRun: boolean;
  kinds: KindReport[];
  needsPerson: string[];
  tokenPairs: TokenPair[];
  verification?: VerifyResult;
  requests: { from: number; to: number };
  durationMs: number;
}

/** The order kinds are copied in: what a later kind refers to exists by then. */
export const KINDS: Kind[] = [environments, projects, strategyTypes, contextFields, tagTypes, tags, segments, features, users, groups, singleSignOn, corsOrigins, tokens];

export async function migrate(options: MigrateOptions): Promise<MigrationReport> {
  const started = Date.now();
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const progress = progressFor(write, options.terminal ?? false);
  const from = adminSide('source', options.from, options.fromToken);
  const to = adminSide('target', options.to, options.toToken);
  const context = contextOf(from, to, options);
  const kinds: KindReport[] = [];
  const planOnly = options.dryRun === true || options.verifyOnly === true;
  for (const kind of options.verifyOnly ? [tokens] : KINDS) {
    const steps = await kind.plan(context);
    const report = reportOf(kind.name, steps);
    kinds.push(report);
    const writes = steps.filter((step) => step.action === 'create' || step.action === 'update' || step.action === 'prune');
    if (planOnly || writes.length === 0) continue;
    progress.start(kind.name, writes.length);
    const done = (step: Step, error?: unknown) => {
      progress.step(step, error);
      if (error instanceof StepSkipped) report.skipped.push({ key: step.key, reason: error.message });
      else if (error !== undefined) report.failed.push({ key: step.key, error: messageOf(error) });
      else if (step.action === 'create') report.created.push(step.key);
      else if (step.action === 'update') report.updated.push({ key: step.key, fields: step.detail ?? '' });
      else report.pruned.push(step.key);
    };
    if (kind.apply) await kind.apply(writes, context, done);
    else for (const step of writes) await step.run!().then(() => done(step), (error) => done(step, error));
    progress.end();
  }
  let verification: VerifyResult | undefined;
  if (options.dryRun !== true) {
    progress.line('verifying: what SDKs get from both sides, compared');
    verification = await verify(from, to, context.tokenPairs);
  }
  const failed = kinds.some((kind) => kind.failed.length > 0);
  return {
    ok: !failed && (verification === undefined || verification.differences.length === 0),
    dryRun: options.dryRun === true,
    kinds,
    needsPerson: context.needsPerson,
    tokenPairs: context.tokenPairs,
    ...(verification ? { verification } : {}),
    requests: { from: from.requests(), to: to.requests() },
    durationMs: Date.now() - started,
  };
}

function contextOf(from: AdminSide, to: AdminSide, options: MigrateOptions): MigrationContext {
  return {
    from, to,
    options: { prune: options.prune === true, dryRun: options.dryRun === true || options.verifyOnly === true },
    userIdsByKey: new Map(),
    tokenPairs: [],
    needsPerson: [],
  };
}

function reportOf(kind: string, steps: Step[]): KindReport {
  return {
    kind,
    same: steps.filter((step) => step.action === 'same').length,
    created: [],
    updated: [],
    pruned: [],
    planned: steps.filter((step) => step.action !== 'same' && step.action !== 'skip').map((step) => ({ key: step.key, action: step.action, ...(step.detail ? { detail: step.detail } : {}) })),
    skipped: steps.filter((step) => step.action === 'skip').map((step) => ({ key: step.key, reason: step.detail ?? '' })),
    failed: [],
  };
}
