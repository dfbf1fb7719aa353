import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * A client of another language under test: an official SDK and, where one exists, an OpenFeature
 * OFREP provider, each driven through the evaluator protocol of test/clients/README.md. Each
 * client's folder holds its evaluator and a `client.ts` exporting `client` of this type.
 */
export interface ClientUnderTest {
  /** Short name shown in test titles and counts: java, go, python, node, web. */
  name: string;
  /** The official Unleash SDK: its package as its registry names it, and the version pinned (none for a browser-only OFREP client). */
  sdk?: { package: string; version: string };
  /**
   * The OpenFeature SDK and OFREP provider, when the language has one. `token`: the kind of API
   * token its evaluator is started with, `client` (a server provider, the default) or `frontend`
   * (a browser's web provider).
   */
  ofrep?: { package: string; version: string; sdkPackage: string; sdkVersion: string; token?: 'client' | 'frontend' };
  /**
   * Installs and builds what the evaluators need, idempotent and cached under
   * `CLIENTS_CACHE` (never inside the checkout), so a warm run takes seconds.
   */
  prepare(): Promise<void>;
  /** How to start the evaluator of one kind; the harness adds the CLIENT_* variables. */
  command(kind: EvaluatorKind): { command: string; args: string[]; cwd?: string; env?: Record<string, string> };
  /**
   * Spec cases this client evaluates differently from the specification, by file and case
   * title (the description, `variant: ` before a variant case's; `sdk: ` or `ofrep: ` before the
   * title for one kind only), each with its reason. The suite checks that each still differs and
   * names a case of the file, so an entry cannot outlive the difference.
   */
  knownDifferences?: Record<string, Record<string, string>>;
}

export type EvaluatorKind = 'sdk' | 'ofrep';

/** Where toolchain downloads and builds are kept between runs and clones. */
export const CLIENTS_CACHE = process.env.CLIENTS_CACHE ?? join(homedir(), '.cache', 'serverless-toggles');
