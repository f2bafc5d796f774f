/**
 * The API reference, made from the app itself: every route Hono holds under /api (method and path), with the
 * zod schemas its `valid(...)` middleware checks and the roles its guard admits (api/http/route_docs.ts), as an
 * OpenAPI 3.1 document. A route written the usual way is in the reference without anyone listing it.
 * A success answer is the TypeScript type in contract/shapes/ that api/http/route_answers.ts names for the route,
 * as the JSON Schema generated from it (contract/shapes.schema.json); a route not named there is described as a
 * generic success. Failures have one shape and one catalogue of codes, documented once.
 */
import { z } from 'zod';
import { ROLES } from '../../contract/shapes/user.ts';
import { MESSAGES } from './errors.ts';
import { FAILURES } from './failures.ts';
import { middlewareDoc, type ValidatedInput } from './route_docs.ts';
import { ROUTE_ANSWERS } from './route_answers.ts';
import shapes from '../../contract/shapes.schema.json' with { type: 'json' };

/** What Hono's `app.routes` lists: one entry per handler or middleware. */
export interface RouteEntry {
  method: string;
  path: string;
  handler: unknown;
}

type Json = Record<string, unknown>;

/** The codes the HTTP layer writes itself, besides the domain's reasons (api/http/failures.ts). */
export const HTTP_LAYER_CODES: Record<string, { status: number; message: string }> = {
  invalid: { status: 400, message: 'The first problem with the input, in plain words.' },
  bad_json: { status: 400, message: MESSAGES.malformedJson },
  bad_request: { status: 400, message: 'What is wrong with the request.' },
  unauthenticated: { status: 401, message: MESSAGES.unauthenticated },
  forbidden: { status: 403, message: MESSAGES.forbidden },
  password_change_required: { status: 403, message: MESSAGES.passwordChangeRequired },
  not_found: { status: 404, message: MESSAGES.notFound },
  conflict: { status: 409, message: 'What the request conflicts with.' },
  too_large: { status: 413, message: MESSAGES.tooLarge },
  internal: { status: 500, message: MESSAGES.internal },
};

const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);

/** Hono's `/documents/:id{[0-9]+}` or `/:id?` as OpenAPI's `/documents/{id}`, with the parameters' names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.split('/').map((segment) => {
    const match = /^:([A-Za-z0-9_]+)(\{.*\})?\??$/.exec(segment);
    if (!match) return segment;
    params.push(match[1]);
    return `{${match[1]}}`;
  }).join('/');
  return { path: converted, params };
}

/** Whether a middleware registered at `pattern` (`/api/admin/users/*`) runs for `path`. */
function covers(pattern: string, path: string): boolean {
  if (pattern === '*' || pattern === '/*') return true;
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -2);
    return path === base || path.startsWith(`${base}/`);
  }
  return pattern === path;
}

function jsonSchema(schema: z.ZodType): Json {
  // io 'input': what a client sends, before the schema's transforms; a transform or a File has no JSON Schema
  // of its own, and is described as what it accepts ('any' leaves it open rather than failing the reference).
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

/** Query, path or header parameters from an object schema; anything else is one opaque parameter. */
function parametersOf(input: ValidatedInput, where: 'query' | 'path' | 'header'): Json[] {
  const schema = jsonSchema(input.schema);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const BODY_TYPES: Record<string, string> = {
  json: 'application/json',
  form: 'multipart/form-data',
  text: 'text/plain',
};

function tagOf(path: string): string {
  const [, , first, second] = path.split('/');
  if (first === 'openapi.json' || first === 'docs') return 'reference';
  return first === 'admin' && second ? `admin/${second}` : first;
}

function operationId(method: string, path: string): string {
  const words = path.replace(/^\/api\//, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words].join('_');
}

interface Collected {
  method: string;
  honoPath: string;
  inputs: ValidatedInput[];
  roles?: readonly string[];
  departmentOnly?: boolean;
}

/** The routes under /api, one per method and path, with what their middleware registered. */
export function collectOperations(routes: readonly RouteEntry[]): Collected[] {
  const middleware = routes.filter((route) => route.method === 'ALL');
  const operations = new Map<string, Collected>();
  for (const route of routes) {
    if (!METHODS.has(route.method) || !route.path.startsWith('/api/')) continue;
    const key = `${route.method} ${route.path}`;
    let operation = operations.get(key);
    if (!operation) {
      operation = { method: route.method, honoPath: route.path, inputs: [] };
      // A sub-app's `.use(requireRole(...))` is registered once for its whole prefix.
      for (const use of middleware) {
        const doc = middlewareDoc(use.handler);
        if (doc?.roles && covers(use.path, route.path)) operation.roles = doc.roles;
        if (doc?.departmentOnly && covers(use.path, route.path)) operation.departmentOnly = true;
      }
      operations.set(key, operation);
    }
    const doc = middlewareDoc(route.handler);
    if (doc?.input) operation.inputs.push(doc.input);
    if (doc?.roles) operation.roles = doc.roles;
    if (doc?.departmentOnly) operation.departmentOnly = true;
  }
  return [...operations.values()];
}

function operationOf(collected: Collected): { path: string; operation: Json } {
  const { path, params } = openApiPath(collected.honoPath);
  const byTarget = (target: string) => collected.inputs.find((input) => input.target === target);
  const pathInput = byTarget('param');
  const declared = pathInput ? parametersOf(pathInput, 'path') : [];
  const parameters: Json[] = params.map((name) =>
    declared.find((parameter) => parameter.name === name) ??
      { name, in: 'path', required: true, schema: { type: 'string' } }
  );
  const query = byTarget('query');
  if (query) parameters.push(...parametersOf(query, 'query'));
  const header = byTarget('header');
  if (header) parameters.push(...parametersOf(header, 'header'));

  const body = collected.inputs.find((input) => BODY_TYPES[input.target]);
  const roles = collected.roles;
  const everyone = roles && ROLES.every((role) => roles.includes(role));
  const operation: Json = {
    tags: [tagOf(path)],
    operationId: operationId(collected.method, path),
    summary: `${collected.method} ${path}`,
    description: roles
      ? `Signed in as ${everyone ? 'any role' : roles.join(', ')}${
        collected.departmentOnly
          ? ", and only the department's administrators (admins of the first entity)"
          : ''
      }.`
      : 'Open to anyone: no sign-in.',
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
        requestBody: {
          required: true,
          content: { [BODY_TYPES[body.target]]: { schema: jsonSchema(body.schema) } },
        },
      }
      : {}),
    responses: {
      ...successOf(`${collected.method} ${path}`),
      '4XX': { $ref: '#/components/responses/Failure' },
      '5XX': { $ref: '#/components/responses/Failure' },
    },
    security: roles ? [{ bearerAuth: [] }] : [],
  };
  return { path, operation };
}

/** The generated shapes as components: their `#/definitions/…` references point at `#/components/schemas/…`. */
function shapeComponents(): Record<string, Json> {
  return JSON.parse(
    JSON.stringify(shapes.definitions).replaceAll('"#/definitions/', '"#/components/schemas/'),
  );
}

/** The documented success of an operation (route_answers.ts), or the generic one. */
function successOf(operation: string): Record<string, Json> {
  const answer = ROUTE_ANSWERS[operation];
  if (!answer) return { '2XX': { $ref: '#/components/responses/Success' } };
  const refs = answer.shapes.map((name) => ({ $ref: `#/components/schemas/${name}` }));
  return {
    [String(answer.status ?? 200)]: {
      description: `Done: ${answer.shapes.join(' or ')} (contract/shapes/).`,
      content: { 'application/json': { schema: refs.length === 1 ? refs[0] : { anyOf: refs } } },
    },
  };
}

/** Every code a failure may carry, with its status and text, for the Failure component's description. */
function failureCodes(): { codes: string[]; table: string } {
  const rows: string[] = [];
  const codes: string[] = [];
  const add = (code: string, status: number, message: string) => {
    codes.push(code);
    rows.push(`| \`${code}\` | ${status} | ${message.replaceAll('|', '\\|')} |`);
  };
  for (const [code, entry] of Object.entries(HTTP_LAYER_CODES)) add(code, entry.status, entry.message);
  for (const [code, entry] of Object.entries(FAILURES)) {
    const message = typeof entry.message === 'string' ? entry.message : entry.message('{detail}');
    add(code, entry.status, code === 'invalid_input' ? 'The problem with the input.' : message);
  }
  return { codes, table: ['| code | status | message |', '|---|---|---|', ...rows].join('\n') };
}

/** The OpenAPI 3.1 document of the app whose `routes` (Hono's `app.routes`) are given. */
export function buildOpenApi(routes: readonly RouteEntry[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const tags = new Set<string>();
  for (const collected of collectOperations(routes)) {
    const { path, operation } = operationOf(collected);
    (paths[path] ??= {})[collected.method.toLowerCase()] = operation;
    tags.add((operation.tags as string[])[0]);
  }
  const { codes, table } = failureCodes();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Legal-mail portal API',
      version: '1',
      description:
        'Generated from the routes and their validation schemas. Authentication, errors, paging and ' +
        'the upload are introduced in docs/api.md.',
    },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'The token POST /api/auth/login answers, sent as `Authorization: Bearer <token>`. It names ' +
            'a session the server checks on every request, so sign-out, deactivation and the idle timeout end it.',
        },
      },
      schemas: {
        ...shapeComponents(),
        FailureCode: {
          type: 'string',
          enum: codes,
          description: `Why a request was refused: a code the client may branch on.\n\n${table}`,
        },
        Failure: {
          type: 'object',
          required: ['success', 'message'],
          properties: {
            success: { const: false },
            message: { type: 'string', description: 'What went wrong, in words a person can act on.' },
            code: { $ref: '#/components/schemas/FailureCode' },
          },
        },
        Success: {
          type: 'object',
          required: ['success'],
          properties: { success: { const: true }, message: { type: 'string' } },
          additionalProperties: true,
          description:
            "The route's own fields beside `success`, for a route whose answer has no shape here yet.",
        },
      },
      responses: {
        Success: {
          description:
            'Done. JSON `{ success: true, … }`, in the shape the route names when it names one; the document ' +
            'readings answer the PDF bytes and the audit export a CSV file instead.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
        },
        Failure: {
          description:
            'Refused: `{ success: false, message, code }`. A temporary refusal carries `Retry-After`.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
        },
      },
    },
  };
}
