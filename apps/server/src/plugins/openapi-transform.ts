import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteSchema = NonNullable<TransformInput['schema']>;

/** What each error answer means, shown beside it in the API reference. */
export const ERROR_MEANINGS: Record<number, string> = {
  400: 'The input is not valid: `errorInfo.details` names each field and what is wrong with it',
  401: 'No valid access token (missing, expired or revoked)',
  403: "The caller's role or entity does not allow this",
  404: "No such resource, or not in the caller's entities",
  409: 'Conflicts with the current state (a name already taken, a state that does not allow it)',
  413: 'The body is larger than the route accepts',
  429: 'Too many requests: retry after the `Retry-After` header’s seconds',
  502: 'The device answered with an error',
  503: 'The server is shutting down, or the MQTT broker is unreachable',
  504: 'The device did not answer in time',
};

const described = Object.fromEntries(
  Object.entries(ERROR_MEANINGS).map(([code, text]) => [code, ErrorInfoSchema.describe(text)]),
);

/**
 * The error answers an operation may give, derived from its schema where the route did not
 * list them: 400 when it takes input, 401 and 403 when it needs a token, 404 when its path
 * names a resource. Every error answer gets its meaning as the description.
 */
export function withErrorAnswers(schema: RouteSchema): RouteSchema {
  if (!schema.response || typeof schema.response !== 'object') return schema;
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown>) };
  const codes: number[] = [];
  if (schema.params || schema.querystring || schema.body) codes.push(400);
  if (Array.isArray(schema.security) && schema.security.length > 0) codes.push(401, 403);
  if (schema.params) codes.push(404);
  for (const code of codes) response[code] ??= ErrorInfoSchema;
  for (const [code, value] of Object.entries(response)) {
    if (value === ErrorInfoSchema && described[code]) response[code] = described[code];
  }
  return { ...schema, response };
}

/** The zod type provider's transform, after withErrorAnswers; the route's own schema is left as it was. */
export const documentTransform: typeof jsonSchemaTransform = (input) =>
  jsonSchemaTransform(input.schema ? { ...input, schema: withErrorAnswers(input.schema) } : input);
