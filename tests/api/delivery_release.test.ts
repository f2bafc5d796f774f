/**
 * An offender released or transferred: marked by an admin or by the roster's `status` column, they cannot sign
 * in or be sent to, the senders' lists say "Recipient released", and their documents are deleted
 * `release_purge_days` later (a tombstone the senders see as Deleted, then nothing).
 */
import assert from 'node:assert/strict';
import { purgeExpiredDocuments } from '../../api/domain/retention.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting, storedBlobs, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let admin: string;
let attorney: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
    attorney = await signIn(t, ...DEMO.attorney);
  },
});

async function attorneyRow(id: string) {
  const r = await call(t, 'GET', '/api/documents/attorney', { token: attorney });
  return r.body.documents.find((d: { documentid: string }) => d.documentid === id);
}

Deno.test({
  name:
    'a released offender cannot sign in or be sent to; the sender sees "Recipient released"; purge after the setting',
  ...DB_TEST,
  fn: async () => {
    const person = await makeUser(t, { role: 'offender', firstName: 'Ray', lastName: 'Leeson' });
    const session = await signIn(t, person.username, person.secret);
    const pdf = await makePdf({ title: 'Before release' });
    const sent = await upload(t, attorney, {
      file: pdf,
      recipient: person.username,
      title: 'Before release',
    });
    assert.equal(sent.status, 201);
    const id = sent.body.document.documentid;

    const marked = await call(t, 'PUT', `/api/admin/users/${person.id}/status`, {
      token: admin,
      body: { status: 'released' },
    });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    assert.equal(marked.body.message, 'Offender marked released');
    const [audit] = await t.deps.sql`
      select event_data from audit_logs where event_type = 'user_status_updated' and resource_id = ${person.id}`;
    assert.equal(audit.event_data.to, 'released');

    assert.equal(
      (await call(t, 'GET', '/api/auth/me', { token: session })).status,
      401,
      'signed out at once',
    );
    const login = await call(t, 'POST', '/api/auth/login', {
      body: { username: person.username, password: person.secret, entity: 'default' },
    });
    assert.equal(login.status, 401);
    const lookup = await call(t, 'GET', `/api/recipients/${person.username}`, { token: attorney });
    assert.equal(lookup.status, 404);
    assert.equal(lookup.body.message, 'No one with this DOC number receives mail here');
    const refused = await upload(t, attorney, {
      file: pdf,
      recipient: person.username,
      title: 'After release',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'upload_no_offender');

    const row = await attorneyRow(id);
    assert.equal(row.recipient_released, true);
    assert.equal(row.state, 'delivered');

    // Within the setting nothing is deleted; past it the document becomes a tombstone the sender sees as Deleted.
    await setNumberSetting(t, 'release_purge_days', 30);
    await t.deps.sql`update users set released_at = now() - interval '29 days' where id = ${person.id}`;
    await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
    assert.equal((await attorneyRow(id)).state, 'delivered');
    await t.deps.sql`update users set released_at = now() - interval '31 days' where id = ${person.id}`;
    const purged = await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
    assert.ok(purged.documents >= 1);
    const gone = await attorneyRow(id);
    assert.equal(gone.state, 'deleted');
    assert.equal(gone.description, '');
    assert.equal((await call(t, 'GET', `/api/documents/view/${id}`, { token: attorney })).status, 404);
    assert.ok(!(await storedBlobs(t)).includes(sent.body.document.sha256), 'the bytes are collected');
    const [deleted] = await t.deps.sql`
      select event_data from audit_logs where event_type = 'document_deleted' and resource_id = ${id}`;
    assert.equal(deleted.event_data.reason, 'recipient_released');

    // Back in custody: active again, reachable again.
    const back = await call(t, 'PUT', `/api/admin/users/${person.id}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal(back.status, 200);
    assert.equal(
      (await call(t, 'GET', `/api/recipients/${person.username}`, { token: attorney })).status,
      200,
    );
  },
});

Deno.test({
  name: 'only an offender can be marked released or transferred',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t, { role: 'attorney' });
    const r = await call(t, 'PUT', `/api/admin/users/${staff.id}/status`, {
      token: admin,
      body: { status: 'transferred' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'user_not_offender');
  },
});

Deno.test({
  name: "the roster's optional status column marks offenders transferred, and back to active",
  ...DB_TEST,
  fn: async () => {
    const importCsv = (csv: string) =>
      call(t, 'POST', '/api/admin/offenders/import', {
        token: admin,
        rawBody: csv,
        headers: { 'content-type': 'text/csv' },
      });
    const first = await importCsv('doc_number,first_name,last_name,pin,status\n730001,Tia,Moves,123456,\n');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const moved = await importCsv(
      'doc_number,first_name,last_name,pin,status\n730001,Tia,Moves,,Transferred\n730002,A,B,123456,gone\n',
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const rejected = moved.body.data.rows.find((r: { docNumber: string }) => r.docNumber === '730002');
    assert.equal(rejected.reason, 'Status must be active, released or transferred');
    const [row] = await t.deps.sql`select status, released_at from users where doc_number = '730001'`;
    assert.equal(row.status, 'transferred');
    assert.ok(row.released_at);
    const [audit] = await t.deps.sql`
      select event_data from audit_logs where event_type = 'user_status_updated' order by id desc limit 1`;
    assert.equal(audit.event_data.source, 'roster_api');
    assert.equal((await call(t, 'GET', '/api/recipients/730001', { token: attorney })).status, 404);
    await importCsv('doc_number,first_name,last_name,pin,status\n730001,Tia,Moves,,active\n');
    const [after] = await t.deps.sql`select status, released_at from users where doc_number = '730001'`;
    assert.deepEqual(after, { status: 'active', released_at: null });
  },
});

Deno.test({
  name: 'retention leaves a tombstone the sender sees as Deleted for one more period, then removes it',
  ...DB_TEST,
  fn: async () => {
    const sent = await upload(t, attorney, { file: await makePdf(), recipient: '100002', title: 'Aging' });
    const id = sent.body.document.documentid;
    await t.deps.sql`update documents set uploaded_at = now() - interval '91 days' where id = ${id}`;
    await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
    const row = await attorneyRow(id);
    assert.equal(row.state, 'deleted');
    const info = await call(t, 'GET', `/api/documents/${id}/info`, { token: attorney });
    assert.equal(info.body.data.document.timeline.at(-1).event, 'deleted');
    await t.deps
      .sql`update documents set uploaded_at = now() - interval '200 days', deleted_at = now() - interval '91 days'
      where id = ${id}`;
    await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
    assert.equal(await attorneyRow(id), undefined);
    assert.equal((await t.deps.sql`select 1 from documents where id = ${id}`).length, 0);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
