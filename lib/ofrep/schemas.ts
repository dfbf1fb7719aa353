import * as z from 'zod';

/**
 * An evaluation request, `{"context": {...}}`. Any JSON reaches the service, which checks the
 * context itself (context.ts): its refusals are OFREP's codes (`INVALID_CONTEXT` naming the
 * attribute), not the interface's ValidationError.
 */
export const ofrepRequestSchema = z.unknown().meta({
  description: 'The evaluation context under "context": targetingKey and attributes (text, numbers, booleans)',
  example: { context: { targetingKey: 'user-123', region: 'eu' } },
});

const metadataSchema = z.record(z.string(), z.union([z.string(), z.boolean(), z.number()]));

/** A flag evaluated: its value, why, the variant, and what the caller may use besides. */
export const ofrepEvaluationSchema = z.object({
  key: z.string(),
  value: z.union([z.boolean(), z.string(), z.number(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  reason: z.enum(['STATIC', 'TARGETING_MATCH', 'SPLIT', 'DEFAULT', 'DISABLED', 'UNKNOWN']),
  variant: z.string(),
  metadata: metadataSchema.optional(),
});

/** A flag that could not be evaluated, or a request refused: OpenFeature's error code and why. */
export const ofrepFailureSchema = z.object({
  key: z.string().optional(),
  errorCode: z.enum(['FLAG_NOT_FOUND', 'PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'GENERAL']),
  errorDetails: z.string().optional(),
  metadata: metadataSchema.optional(),
});

/** The flags of the token's scope for the context: every one for a client token, those on for the caller for a frontend token. */
export const ofrepBulkSchema = z.object({ flags: z.array(z.union([ofrepEvaluationSchema, ofrepFailureSchema])) });
