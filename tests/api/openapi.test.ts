/**
 * The API reference (/api/openapi.json, /api/docs) is made from the app's own routes: it is a valid OpenAPI 3.1
 * document (checked against the OpenAPI Initiative's schema, tests/support/openapi/), it lists every route the
 * app answers, with the inputs its validators check and the roles its guard admits, and a route added the usual
 * way appears in it without anyone listing it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { FAILURES } from '../../api/http/failures.ts';
import { valid } from '../../api/http/validate.ts';
import { requireRole } from '../../api/http/guard.ts';
import oasSchema from '../support/openapi/oas_3.1_schema_2022-10-07.json' with { type: 'json' };
import { call, createTestApp, DB_TEST } from '../support/app.ts';

const root = new URL('../..', import.meta.url).pathname;

/** The routes the app answers under /api, as `METHOD /path/{param}`, read from Hono here, not by the generator. */
function appOperations(routes: readonly { method: string; path: string }[]): Set<string> {
  const operations = new Set<string>();
  for (const { method, path } of routes) {
    // 'ALL' is middleware (`.use`) and the /api catch-all's 404: neither is an operation.
    if (method === 'ALL' || !path.startsWith('/api/')) continue;
    operations.add(`${method} ${path.replace(/:(\w+)(\{[^}]*\})?\??/g, '{$1}')}`);
  }
  return operations;
}

/**
 * The OpenAPI schema reaches Schema Objects through `$dynamicRef: "#meta"`, whose anchor sits in its `$defs`; Ajv
 * resolves a `$dynamicAnchor` only at the root of a schema resource. No other `meta` anchor is in scope in this
 * schema, so the dynamic reference means `#/$defs/schema` exactly, and is given to Ajv as that static one.
 */
function withStaticMeta(schema: object): object {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
  );
}

/** Every request-body and parameter schema of the document. */
function schemaObjects(document: any): object[] {
  const schemas: object[] = [...Object.values(document.components.schemas as Record<string, object>)];
  for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) schemas.push(parameter.schema);
      for (const media of Object.values(operation.requestBody?.content ?? {}) as any[]) {
        schemas.push(media.schema);
      }
    }
  }
  return schemas;
}

function documentedOperations(document: any): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
    for (const method of Object.keys(item)) operations.add(`${method.toUpperCase()} ${path}`);
  }
  return operations;
}

Deno.test({
  name: 'the API reference is a valid OpenAPI 3.1 document listing every route of the app',
  ...DB_TEST,
  async fn(t) {
    const app = await createTestApp();
    try {
      const answer = await call(app, 'GET', '/api/openapi.json');
      assert.equal(answer.status, 200);
      const document = answer.body;

      await t.step('it validates against the OpenAPI 3.1 schema', () => {
        // Formats are annotations in JSON Schema 2020-12, as the OpenAPI schema uses them; strict mode would
        // refuse the schema's own `media-range` format and its vocabulary keywords.
        const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
        const validate = ajv.compile(withStaticMeta(oasSchema));
        const isValid: boolean = validate(document);
        assert.ok(isValid, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
        assert.equal(document.openapi, '3.1.0');
        // The validator does bite: a path parameter that is not required is not OpenAPI 3.1.
        const broken = structuredClone(document);
        broken.paths['/api/admin/users/{id}/status'].put.parameters[0].required = false;
        assert.equal(validate(broken), false);
        // And each Schema Object in it is a JSON Schema 2020-12 schema (the dialect OpenAPI 3.1 uses).
        for (const schema of schemaObjects(document)) {
          assert.ok(ajv.validateSchema(schema), JSON.stringify({ schema, errors: ajv.errors }));
        }
      });

      await t.step('every route the app answers is in it, and nothing else', () => {
        const routes = appOperations(app.app.routes);
        assert.ok(routes.size > 40, `the app's routes were found (${routes.size})`);
        assert.ok(routes.has('GET /api/openapi.json') && routes.has('GET /api/docs'));
        const documented = documentedOperations(document);
        assert.deepEqual(
          [...routes].filter((op) => !documented.has(op)),
          [],
          'routes missing from the reference',
        );
        assert.deepEqual(
          [...documented].filter((op) => !routes.has(op)),
          [],
          'documented routes the app lacks',
        );
      });

      await t.step('each path parameter is declared, once', () => {
        for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
          const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          for (const [method, operation] of Object.entries(item)) {
            const declared = (operation.parameters ?? []).filter((p: any) => p.in === 'path');
            assert.deepEqual(declared.map((p: any) => p.name), names, `${method} ${path}`);
            assert.ok(declared.every((p: any) => p.required === true), `${method} ${path}`);
          }
        }
      });

      await t.step("inputs are the routes' own zod schemas; roles are the guards'", () => {
        const login = document.paths['/api/auth/login'].post;
        assert.deepEqual(login.security, [], 'signing in needs no token');
        assert.ok(login.requestBody.content['application/json'].schema.properties.password);
        const status = document.paths['/api/admin/users/{id}/status'].put;
        assert.deepEqual(status.security, [{ bearerAuth: [] }]);
        assert.match(status.description, /admin/);
        assert.deepEqual(
          status.requestBody.content['application/json'].schema.properties.status.enum?.toSorted(),
          ['active', 'deactivated', 'released', 'transferred'],
        );
        const users = document.paths['/api/admin/users'].get;
        assert.ok(users.parameters.some((p: any) => p.in === 'query' && p.name === 'limit'));
        const upload = document.paths['/api/documents/upload'].post;
        assert.ok(upload.requestBody.content['multipart/form-data'].schema.required.includes('file'));
        assert.deepEqual(document.paths['/api/health/live'].get.security, []);
        assert.deepEqual(document.components.securitySchemes.bearerAuth, {
          ...document.components.securitySchemes.bearerAuth,
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
        });
      });

      await t.step('every refusal code the API can send is documented, with the failure shape', async () => {
        const documented = new Set<string>(document.components.schemas.FailureCode.enum);
        const sent = new Set(Object.keys(FAILURES));
        // The codes the HTTP layer writes itself, found as tests/checks/failure_codes.test.ts finds them.
        const walk = async (dir: string) => {
          for await (const entry of Deno.readDir(dir)) {
            const path = join(dir, entry.name);
            if (entry.isDirectory) await walk(path);
            else if (entry.name.endsWith('.ts')) {
              const text = await Deno.readTextFile(path);
              for (const m of text.matchAll(/new AppError\([^;]*?'([a-z_]+)'\s*[,)]/g)) sent.add(m[1]);
              for (const m of text.matchAll(/failure\(c,[^;]*?'([a-z_]+)'\s*\)/g)) sent.add(m[1]);
            }
          }
        };
        await walk(join(root, 'api'));
        assert.deepEqual(
          [...sent].filter((code) => !documented.has(code)),
          [],
          'codes missing from the reference',
        );
        const failure = document.components.schemas.Failure;
        assert.deepEqual(failure.required, ['success', 'message']);
        assert.deepEqual(failure.properties.success, { const: false });
      });
    } finally {
      await app.close();
    }
  },
});

Deno.test({
  name: 'a route added to the app is in the reference with its inputs and roles, without being listed',
  ...DB_TEST,
  async fn() {
    const app = await createTestApp();
    try {
      app.app.post(
        '/api/example/:thing/notes',
        requireRole(['approver']),
        valid('param', z.object({ thing: z.uuid() })),
        valid('json', z.object({ note: z.string().max(5) })),
        (c) => c.json({ success: true }),
      );
      const { body: document } = await call(app, 'GET', '/api/openapi.json');
      const operation = document.paths['/api/example/{thing}/notes']?.post;
      assert.ok(operation, 'the new route is documented');
      assert.equal(operation.parameters[0].schema.format, 'uuid');
      assert.equal(operation.requestBody.content['application/json'].schema.properties.note.maxLength, 5);
      assert.equal(operation.description, 'Signed in as approver.');
    } finally {
      await app.close();
    }
  },
});

Deno.test({
  name: '/api/docs renders every operation from the document, with nothing fetched from elsewhere',
  ...DB_TEST,
  async fn() {
    const app = await createTestApp();
    try {
      const { body: document } = await call(app, 'GET', '/api/openapi.json');
      const answer = await app.app.request('/api/docs');
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /text\/html/);
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      const html = await answer.text();
      for (const operation of documentedOperations(document)) {
        const [method, path] = operation.split(' ');
        assert.ok(html.includes(`${method}</span> <code>${path}</code>`), `${operation} is on the page`);
      }
      // A documented answer links to its shape, listed with its fields.
      assert.match(html, /200 with <a href="#shape-LoginAnswer"><code>LoginAnswer<\/code><\/a> or/);
      assert.ok(html.includes('<section class="shape" id="shape-LoginAnswer">'));
      // No script, stylesheet, font or image from anywhere: the page is whole as it is sent.
      assert.doesNotMatch(html, /<script|<link|<img|src=|url\(/i);
      assert.doesNotMatch(html, /https?:\/\//);
    } finally {
      await app.close();
    }
  },
});
