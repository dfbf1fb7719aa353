import * as z from 'zod';

/**
 * Every path parameter of the API and the one rule that parses it. The router parses a row's
 * parameters with these before its handler runs, so a handler gets numbers for numeric ids and
 * no handler parses a path again. A row whose path names a parameter missing here does not
 * compile (`PathParameter` below).
 *
 * Names stay strings, as Unleash reads them: a name that breaks the naming rule is simply not
 * found (404), which is what Unleash answers for it too.
 */
const name = z.string().min(1);

/**
 * Numeric ids (users, groups, segments): whole numbers, no sign or leading zeros, at most 15
 * digits, so every one is a safe integer. Anything else is a bad request, not a miss.
 */
const numericId = z
  .string()
  .regex(/^(0|[1-9]\d{0,14})$/, { error: 'ID should be a whole number' })
  .transform(Number);

export const PATH_PARAMETERS = {
  projectId: name,
  featureName: name,
  environment: name,
  strategyId: name,
  parentName: name,
  /** A flag link's id. */
  linkId: name,
  strategyName: name,
  /** Context field, tag type and environment names. */
  name,
  /** Tag type and value of a feature's tag. */
  type: name,
  value: name,
  /** A public signup token's secret. */
  token: name,
  /** An SDK application's name, a splash screen's and a feedback prompt's id (the admin UI's own). */
  appName: name,
  splashId: name,
  feedbackId: name,
  /** Users and segments. */
  id: numericId,
  groupId: numericId,
  /** The rest of an unknown /api path. */
  proxy: z.string(),
} as const;

export type PathParameter = keyof typeof PATH_PARAMETERS;

/** `'/a/{x}/b/{y}'` → `'x' | 'y'`; a greedy `{proxy+}` is named `proxy`. */
export type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Greedy}+` ? Greedy : Name) | PathParamNames<Rest>
  : never;

/** A handler's `params`: each of the path's parameters as its rule parses it. */
export type PathParams<Path extends string> = { [K in PathParamNames<Path> & PathParameter]: z.output<(typeof PATH_PARAMETERS)[K]> };

/** The names in a path, in order. */
export function pathParameterNames(path: string): PathParameter[] {
  return [...path.matchAll(/\{(\w+)\+?\}/g)].map(([, parameter]) => {
    if (!(parameter! in PATH_PARAMETERS)) throw new Error(`Path ${path}: parameter ${parameter} has no rule in lib/http/path-parameters.ts`);
    return parameter as PathParameter;
  });
}

/** The schema that parses a path's parameters (API Gateway's `pathParameters`). */
export function pathSchemaOf(path: string): z.ZodType {
  return z.object(Object.fromEntries(pathParameterNames(path).map((parameter) => [parameter, PATH_PARAMETERS[parameter]])));
}
