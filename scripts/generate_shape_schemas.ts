/**
 * The API's answer shapes as JSON Schemas, made from their one declaration: the exported `…Answer` types of
 * contract/shapes/ (TypeScript), read by ts-json-schema-generator. The result is committed as
 * contract/shapes.schema.json, which the API reference (api/http/openapi.ts) serves as its success schemas;
 * tests/api/openapi_shapes.test.ts fails when the file differs from a fresh generation, so a changed shape
 * is regenerated with it:
 *
 *     node_modules/.bin/deno run -A scripts/generate_shape_schemas.ts
 *
 * An object has exactly the properties its type declares (`additionalProperties: false`), so an answer that
 * gains, loses or renames a field no longer matches its schema.
 */
import { createGenerator } from 'ts-json-schema-generator';

const root = new URL('..', import.meta.url).pathname;
export const SHAPE_SCHEMA_FILE = `${root}contract/shapes.schema.json`;

type Json = Record<string, unknown>;

/**
 * A generic type's instance is named by the generator as written, `SenderPageAnswer<AttorneyDocument>`; an
 * OpenAPI component's name is letters, digits, `.`, `-` and `_`, so it becomes `SenderPageAnswer_AttorneyDocument`.
 */
function componentName(name: string): string {
  return decodeURIComponent(name).replace(/[<>, ]+/g, '_').replace(/_+$/, '');
}

/** The same schema with every definition and reference renamed by `componentName`. */
function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string'
        ? [key, `#/definitions/${componentName(item.replace('#/definitions/', ''))}`]
        : [key, renamed(item)]
    ),
  );
}

/** Every `$ref` target (`#/definitions/Name`) inside `value`. */
function refsOf(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) refsOf(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.add(item.replace('#/definitions/', ''));
      else refsOf(item, found);
    }
  }
}

/** The answer types and every definition they reach, sorted by name: `{ $schema, definitions }`. */
export function generateShapeSchemas(): Json {
  const generator = createGenerator({
    path: `${root}contract/shapes/*.ts`,
    type: '*',
    expose: 'export',
    topRef: true,
    additionalProperties: false,
    // The shapes are type-checked by `deno check` (their imports end in `.ts`, which a bare compiler refuses).
    skipTypeCheck: true,
    jsDoc: 'extended',
  });
  const all: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(generator.createSchema('*').definitions ?? {})) {
    all[componentName(name)] = renamed(schema) as Json;
  }
  const keep = new Set(Object.keys(all).filter((name) => name.endsWith('Answer')));
  for (let grew = true; grew;) {
    const before = keep.size;
    for (const name of [...keep]) refsOf(all[name], keep);
    grew = keep.size > before;
  }
  const definitions: Record<string, Json> = {};
  for (const name of [...keep].sort()) {
    if (!all[name]) throw new Error(`no definition for ${name}`);
    definitions[name] = all[name];
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', definitions };
}

if (import.meta.main) {
  await Deno.writeTextFile(SHAPE_SCHEMA_FILE, `${JSON.stringify(generateShapeSchemas(), null, 2)}\n`);
  const fmt = await new Deno.Command(Deno.execPath(), { args: ['fmt', '-q', SHAPE_SCHEMA_FILE] }).output();
  if (!fmt.success) throw new Error(new TextDecoder().decode(fmt.stderr));
  console.log(`wrote ${SHAPE_SCHEMA_FILE}`);
}
