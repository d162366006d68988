import fc from 'fast-check';

/** A JSON Schema as the OpenAPI document gives it (only the keywords the generators read). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** Text that must never reach the database unchecked, and values shaped to break parsers. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('a\u0000b', '\u0000', '%00', '../../etc/passwd', '<script>x</script>', "' or 1=1 --", '\ud800'),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 10, max: 1_000 }).map((depth) => nest(depth)),
  fc.constantFrom(null, true, -1, 0, 1e308, -1e308, 2 ** 53, 1.5, [], {}, [null], { $set: {} }),
  fc.jsonValue({ maxDepth: 3 }),
);

function nest(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

const bounded = (n: number | undefined, cap: number) => (n === undefined ? cap : Math.min(n, cap));

/** Values that satisfy a schema, mostly (patterns and formats are followed where the schema says them). */
export function valid(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valid(s, depth + 1)));
  if (schema.allOf?.length) return valid(schema.allOf[0], depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...schema, type }, depth)));
  switch (types[0] ?? (schema.properties ? 'object' : undefined)) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1000), max: Math.floor(schema.maximum ?? 100_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'string':
      return validString(schema);
    case 'array':
      return fc.array(valid(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, bounded(schema.maxItems, 4)),
      });
    case 'object': {
      const props = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valid(s, depth + 1)] as const),
      );
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, bounded(schema.maxLength, 24));
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  return fc.string({ minLength, maxLength });
}

/** A valid value with one place in it (or the whole) replaced by a hostile one. */
export function mutated(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  return fc.tuple(valid(schema), hostile, fc.nat()).map(([value, bad, pick]) => replaceNth(value, bad, pick));
}

function replaceNth(value: unknown, bad: unknown, pick: number): unknown {
  const slots: Array<(v: unknown) => void> = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((child, i) => {
        slots.push((x) => (v[i] = x));
        walk(child);
      });
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        slots.push((x) => (o[k] = x));
        walk(o[k]);
      }
    }
  };
  walk(value);
  if (slots.length === 0 || pick % (slots.length + 1) === slots.length) return bad;
  slots[pick % slots.length]!(bad);
  return value;
}
