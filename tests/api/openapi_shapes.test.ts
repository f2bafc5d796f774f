/**
 * The answers the API reference documents are the answers the API sends: the success schemas come from the
 * TypeScript shapes of contract/shapes/ (contract/shapes.schema.json, generated from them and kept equal to a
 * fresh generation), and every route that names its answer (api/http/route_answers.ts) is called here on the
 * real app, its real answer checked against the schema the document gives for that operation and status. An
 * answer with a field missing, renamed or added fails the check.
 */
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ROUTE_ANSWERS } from '../../api/http/route_answers.ts';
import { openApiPath } from '../../api/http/openapi.ts';
import { generateShapeSchemas, SHAPE_SCHEMA_FILE } from '../../scripts/generate_shape_schemas.ts';
import {
  call,
  type CallOptions,
  createTestApp,
  DB_TEST,
  DEMO,
  signIn,
  type TestApp,
} from '../support/app.ts';
import { makeUser, registrationBody } from '../support/factories.ts';
import { insertDocument } from '../support/documents.ts';

Deno.test('contract/shapes.schema.json is what contract/shapes/ generates now', async () => {
  const committed = JSON.parse(await Deno.readTextFile(SHAPE_SCHEMA_FILE));
  // The objects are closed: a field the type does not declare is refused.
  assert.equal(committed.definitions.LoginAnswer.additionalProperties, false);
  assert.deepEqual(
    committed,
    generateShapeSchemas(),
    'a shape changed: run `node_modules/.bin/deno run -A scripts/generate_shape_schemas.ts` and commit the file',
  );
});

/** Validators for the success schemas of one OpenAPI document, by operation and status. */
function answerValidators(document: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const cache = new Map<string, ValidateFunction<any>>();
  return (operation: string, status: number): ValidateFunction<any> => {
    const key = `${operation} ${status}`;
    let validate = cache.get(key);
    if (!validate) {
      const [method, path] = operation.split(' ');
      const media = document.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content;
      const schema = media?.['application/json']?.schema;
      assert.ok(schema, `${operation} documents no JSON schema for ${status}`);
      // The response schema's `#/components/…` references resolve against the document's components.
      validate = ajv.compile({ $id: `urn:answer:${cache.size}`, components: document.components, ...schema });
      cache.set(key, validate);
    }
    return validate;
  };
}

Deno.test({
  name: "every documented answer is the route's real answer, in the shape contract/shapes/ declares",
  ...DB_TEST,
  async fn(t) {
    const app = await createTestApp();
    try {
      const { body: document } = await call(app, 'GET', '/api/openapi.json');
      const validator = answerValidators(document);
      const checked = new Set<string>();

      /** Calls `path` (a real one) as `operation` (the documented one) and checks the answer; returns its body. */
      const check = async (operation: string, path: string, options: CallOptions = {}) => {
        const [method] = operation.split(' ');
        const answer = await call(app, method, path, options);
        const status = ROUTE_ANSWERS[operation]?.status ?? 200;
        assert.equal(answer.status, status, `${operation}: ${JSON.stringify(answer.body)}`);
        const validate = validator(operation, status);
        assert.ok(
          validate(answer.body),
          `${operation}: ${JSON.stringify(validate.errors?.slice(0, 3))}\n${JSON.stringify(answer.body)}`,
        );
        checked.add(operation);
        return answer.body;
      };

      await t.step(
        'each route named in route_answers.ts is a route of the app, with a declared shape',
        () => {
          const operations = new Set<string>();
          for (const route of app.app.routes) {
            if (route.method !== 'ALL') operations.add(`${route.method} ${openApiPath(route.path).path}`);
          }
          for (const [operation, answer] of Object.entries(ROUTE_ANSWERS)) {
            assert.ok(operations.has(operation), `${operation} is not a route of the app`);
            for (const shape of answer.shapes) assert.ok(document.components.schemas[shape], shape);
          }
        },
      );

      const admin = await signIn(app, ...DEMO.admin);
      const attorney = await signIn(app, ...DEMO.attorney);
      const representative = await signIn(app, ...DEMO.representative);
      const approver = await signIn(app, ...DEMO.approver);

      await t.step('open routes and sign-in', async () => {
        await check('GET /api/config', '/api/config');
        await check('GET /api/health', '/api/health');
        await check('GET /api/audit/public-key', '/api/audit/public-key');
        await check('GET /api/health/ready', '/api/health/ready');
        await check('POST /api/auth/login', '/api/auth/login', {
          body: { username: DEMO.attorney[0], password: DEMO.attorney[1], entity: 'default' },
        });
        await check('POST /api/auth/forgot-password', '/api/auth/forgot-password', {
          body: { email: 'nobody@example.test' },
        });
        await check('POST /api/auth/register', '/api/auth/register', { body: registrationBody() });
      });

      await t.step("the offender's routes", async () => {
        const offender = await signIn(app, ...DEMO.offender);
        const [attorneyRow] = await app.deps.sql<{ id: string }[]>`
          select id from users where email = ${DEMO.attorney[0]}`;
        const [offenderRow] = await app.deps.sql<{ id: string }[]>`
          select id from users where doc_number = ${DEMO.offender[0]}`;
        await insertDocument(app, { senderId: attorneyRow.id, recipientId: offenderRow.id, title: 'Motion' });
        const list = await check(
          'GET /api/documents/offender/{docNumber}',
          '/api/documents/offender/100001',
          {
            token: offender,
          },
        );
        assert.equal(list.documents.length, 1);
        await check('GET /api/documents/mine', '/api/documents/mine', { token: offender });
        await check('GET /api/documents/{id}/info', `/api/documents/${list.documents[0].documentid}/info`, {
          token: offender,
        });
        await check('GET /api/auth/me', '/api/auth/me', { token: offender });
        await check('GET /api/auth/offline-key', '/api/auth/offline-key', { token: offender });
        await check('GET /api/auth/sign-ins', '/api/auth/sign-ins', { token: offender });
        await check('POST /api/auth/pin-reset-notice/dismiss', '/api/auth/pin-reset-notice/dismiss', {
          token: offender,
        });
        await check('POST /api/auth/lock', '/api/auth/lock', { token: offender });
        await check('POST /api/auth/unlock', '/api/auth/unlock', {
          token: offender,
          body: { pin: DEMO.offender[1] },
        });
        await check('POST /api/auth/logout', '/api/auth/logout', { token: offender });
      });

      await t.step("the senders' routes", async () => {
        // The whole list and one page of it are the two answers of each sender's list.
        await check('GET /api/documents/attorney', '/api/documents/attorney', { token: attorney });
        await check('GET /api/documents/attorney', '/api/documents/attorney?pageSize=10', {
          token: attorney,
        });
        await check('GET /api/representative/documents', '/api/representative/documents', {
          token: representative,
        });
        await check('GET /api/representative/documents', '/api/representative/documents?pageSize=10&page=1', {
          token: representative,
        });
        await check('GET /api/recipients/{docNumber}', '/api/recipients/100001', { token: attorney });
        await check('GET /api/preferences', '/api/preferences', { token: attorney });
        await check('PUT /api/preferences', '/api/preferences', {
          token: attorney,
          body: { notifyOnOpen: true },
        });
        const links = await check('GET /api/attorney/representatives', '/api/attorney/representatives', {
          token: attorney,
        });
        assert.ok(links.representatives.length > 0);
        await check(
          'POST /api/attorney/representatives/invitations',
          '/api/attorney/representatives/invitations',
          {
            token: attorney,
            body: { email: 'invited.rep@example.test' },
          },
        );
        await check('GET /api/documents/mine', '/api/documents/mine', { token: attorney });
        await check('PATCH /api/auth/preferences', '/api/auth/preferences', {
          token: attorney,
          body: { language: 'es' },
        });
        const fresh = await makeUser(app, { role: 'attorney' });
        const token = await signIn(app, fresh.username, fresh.secret);
        await check('POST /api/auth/password', '/api/auth/password', {
          token,
          body: { currentPassword: fresh.secret, newPassword: 'Another-Str0ng-Passphrase!' },
        });
      });

      await t.step("the approver's routes", async () => {
        const pending = await check('GET /api/approver/registrations', '/api/approver/registrations', {
          token: approver,
        });
        assert.ok(pending.registrations.length > 0);
        await check(
          'POST /api/approver/registrations/{id}/approve',
          `/api/approver/registrations/${pending.registrations[0].id}/approve`,
          { token: approver },
        );
      });

      await t.step('writes: each answers a message, or the row it saved', async () => {
        // The approver turns a registration down.
        const registration = registrationBody();
        await call(app, 'POST', '/api/auth/register', { body: registration });
        const pending = (await call(app, 'GET', '/api/approver/registrations', { token: approver })).body
          .registrations.find((r: { email: string }) => r.email === registration.email);
        await check(
          'POST /api/approver/registrations/{id}/reject',
          `/api/approver/registrations/${pending.id}/reject`,
          { token: approver, body: { reason: 'The bar number could not be verified.' } },
        );

        // A sender takes back an unopened document, and lets a representative go.
        const [attorneyRow] = await app.deps.sql<{ id: string }[]>`
          select id from users where email = ${DEMO.attorney[0]}`;
        const [offenderRow] = await app.deps.sql<{ id: string }[]>`
          select id from users where doc_number = ${DEMO.offender[0]}`;
        const mistaken = await insertDocument(app, {
          senderId: attorneyRow.id,
          recipientId: offenderRow.id,
          title: 'Sent to the wrong person',
        });
        await check('POST /api/documents/{id}/withdraw', `/api/documents/${mistaken}/withdraw`, {
          token: attorney,
        });
        // Its signed receipt through the portal's check: one that verifies and one changed.
        const receipt = await app.app.request(`/api/documents/${mistaken}/receipt`, {
          headers: { authorization: `Bearer ${attorney}` },
        });
        const content = await receipt.text();
        assert.equal(receipt.status, 200, content);
        const verdict = await check('POST /api/receipts/verify', '/api/receipts/verify', {
          token: attorney,
          body: { content },
        });
        assert.equal(verdict.data.valid, true, JSON.stringify(verdict.data));
        await check('POST /api/receipts/verify', '/api/receipts/verify', {
          token: attorney,
          body: { content: content.replace('"version":1', '"version":2') },
        });
        const links = (await call(app, 'GET', '/api/attorney/representatives', { token: attorney })).body;
        await check(
          'POST /api/attorney/representatives/{id}/remove',
          `/api/attorney/representatives/${links.representatives[0].id}/remove`,
          { token: attorney },
        );

        // The admin's changes to a user, an offender, an entity and the whitelist.
        const staff = await makeUser(app, { role: 'attorney' });
        const staffToken = await signIn(app, staff.username, staff.secret);
        await check('POST /api/auth/logout-all', '/api/auth/logout-all', { token: staffToken });
        await check('POST /api/admin/users/{id}/unlock', `/api/admin/users/${staff.id}/unlock`, {
          token: admin,
        });
        await check(
          'POST /api/admin/users/{id}/password-reset',
          `/api/admin/users/${staff.id}/password-reset`,
          {
            token: admin,
          },
        );
        await check('PUT /api/admin/users/{id}/status', `/api/admin/users/${staff.id}/status`, {
          token: admin,
          body: { status: 'deactivated' },
        });
        const offender = await check('POST /api/admin/offenders', '/api/admin/offenders', {
          token: admin,
          body: {
            docNumber: `OA-${crypto.randomUUID().slice(0, 8)}`,
            firstName: 'Ana',
            lastName: 'Ruiz',
            pin: '582914',
          },
        });
        const entity = await check('POST /api/admin/entities', '/api/admin/entities', {
          token: admin,
          body: { name: `North Facility ${crypto.randomUUID().slice(0, 6)}`, status: 'active' },
        });
        await check('PUT /api/admin/entities/{id}', `/api/admin/entities/${entity.data.entity.id}`, {
          token: admin,
          body: { name: entity.data.entity.name, status: 'active', default_language: 'es' },
        });
        await check('POST /api/admin/users/staff', '/api/admin/users/staff', {
          token: admin,
          body: {
            email: 'north.approver@example.test',
            firstName: 'Nell',
            lastName: 'North',
            role: 'approver',
            entity: entity.data.entity.slug,
          },
        });
        const range = await check('POST /api/admin/ip-whitelist', '/api/admin/ip-whitelist', {
          token: admin,
          body: { ipRange: '203.0.113.0/24', description: 'North unit tablets' },
        });
        // A PIN reset needs a facility network: the one-time PIN works there only.
        await check(
          'PUT /api/admin/offenders/{id}/pin',
          `/api/admin/offenders/${offender.data.user.id}/pin`,
          {
            token: admin,
            body: { pin: '739182' },
          },
        );
        await check('PUT /api/admin/ip-whitelist/{id}', `/api/admin/ip-whitelist/${range.data.ipRange.id}`, {
          token: admin,
          body: { isActive: false },
        });
        await check(
          'DELETE /api/admin/ip-whitelist/{id}',
          `/api/admin/ip-whitelist/${range.data.ipRange.id}`,
          {
            token: admin,
          },
        );
      });

      await t.step("the admin's routes", async () => {
        const all = await check('GET /api/admin/users', '/api/admin/users', { token: admin });
        await check('GET /api/admin/users', '/api/admin/users?limit=2', { token: admin });
        await check('GET /api/admin/users/{id}/activity', `/api/admin/users/${all.users[0].id}/activity`, {
          token: admin,
        });
        await check('GET /api/admin/audit-logs', '/api/admin/audit-logs', { token: admin });
        await check('GET /api/admin/audit-logs/integrity', '/api/admin/audit-logs/integrity', {
          token: admin,
        });
        await check('GET /api/admin/email-outbox', '/api/admin/email-outbox', { token: admin });
        await check('GET /api/admin/entities', '/api/admin/entities', { token: admin });
        await check('GET /api/admin/settings', '/api/admin/settings', { token: admin });
        await check('GET /api/admin/health', '/api/admin/health', { token: admin });
        await check('GET /api/admin/ip-whitelist', '/api/admin/ip-whitelist', { token: admin });
        await check('GET /api/auth/mfa/factors', '/api/auth/mfa/factors', { token: admin });
        // With a second factor required of approvers, the approver's sign-in answers the step, not a session.
        await check('PUT /api/admin/settings/{key}', '/api/admin/settings/mfa_required_roles', {
          token: admin,
          body: { value: { type: 'text', value: 'approver' } },
        });
        const step = await check('POST /api/auth/login', '/api/auth/login', {
          body: { username: DEMO.approver[0], password: DEMO.approver[1], entity: 'default' },
        });
        assert.equal(step.mfaEnrollmentRequired, true);
      });

      await t.step('every route that names its answer was called and checked here', () => {
        assert.deepEqual(
          Object.keys(ROUTE_ANSWERS).filter((operation) => !checked.has(operation)),
          [],
        );
      });
    } finally {
      await app.close();
    }
  },
});

Deno.test({
  name: 'an answer with a field missing, renamed or added does not match its documented shape',
  ...DB_TEST,
  async fn() {
    const app: TestApp = await createTestApp();
    try {
      const { body: document } = await call(app, 'GET', '/api/openapi.json');
      const validator = answerValidators(document);
      const admin = await signIn(app, ...DEMO.admin);
      const login = await call(app, 'POST', '/api/auth/login', {
        body: { username: DEMO.attorney[0], password: DEMO.attorney[1], entity: 'default' },
      });
      const page = await call(app, 'GET', '/api/admin/users?limit=2', { token: admin });
      const validLogin = validator('POST /api/auth/login', 200);
      const validPage = validator('GET /api/admin/users', 200);
      assert.ok(validLogin(login.body) && validPage(page.body), 'the real answers match');

      const missing = structuredClone(login.body);
      delete missing.user.firstName;
      assert.equal(validLogin(missing), false, 'a nested field removed');

      const renamed = structuredClone(page.body);
      renamed.next_cursor = renamed.nextCursor;
      delete renamed.nextCursor;
      assert.equal(validPage(renamed), false, 'a field renamed');

      const added = structuredClone(page.body);
      added.users[0].password_hash = 'x';
      assert.equal(validPage(added), false, 'a field the shape does not declare');

      const retyped = structuredClone(page.body);
      retyped.total = String(retyped.total);
      assert.equal(validPage(retyped), false, 'a field of another type');
    } finally {
      await app.close();
    }
  },
});
