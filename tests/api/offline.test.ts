/**
 * Offline reading on a shared facility tablet, the API's half: the session's data key (offenders
 * only, live sessions only, destroyed when the session ends), the lock screen's unlock through the sign-in
 * throttle (right, wrong, the lock that ends the session), the prefetch that is not a reading, and the readings
 * made offline, recorded once whatever the retries.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';
import { revoke_entity_sessions } from '../../api/db/sessions.ts';
import { purgeExpiredDocuments } from '../../api/domain/retention.ts';

let t: TestApp;
let attorney: string;
let ipCounter = 0;
/** Each test its own client address, so the per-address sign-in budget of one never refuses another's. */
const freshIp = () => `10.77.0.${++ipCounter}`;

/** A new offender with a document of their own; signed in from `ip`. */
async function offenderWithMail(ip: string, title = 'Letter') {
  const user = await makeUser(t, { role: 'offender' });
  const token = await signIn(t, user.username, user.secret, ip);
  const r = await upload(t, attorney, {
    file: await makePdf({ pages: 2, title }),
    recipient: user.username,
    title,
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const [session] = await t.deps.sql<{ id: string; created_at: Date }[]>`
    select id, created_at from sessions where user_id = ${user.id} order by created_at desc limit 1`;
  return { ...user, token, ip, documentId: r.body.document.documentid as string, sessionId: session.id };
}

async function sessionRow(id: string) {
  const [row] = await t.deps.sql<{ data_key: Uint8Array | null; revoked_at: Date | null }[]>`
    select data_key, revoked_at from sessions where id = ${id}`;
  return row;
}

async function auditCount(
  type: string,
  where: { resourceId?: string; clientEventId?: string; userId?: string } = {},
) {
  const [row] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs where event_type = ${type}
      and (${where.userId ?? null}::uuid is null or user_id = ${where.userId ?? null})
      and (${where.resourceId ?? null}::text is null or resource_id = ${where.resourceId ?? null})
      and (${where.clientEventId ?? null}::text is null
           or event_data->>'clientEventId' = ${where.clientEventId ?? null})`;
  return row.n;
}

async function viewedAt(documentId: string): Promise<Date | null> {
  const [row] = await t.deps.sql<{ viewed_at: Date | null }[]>`
    select viewed_at from documents where id = ${documentId}`;
  return row.viewed_at;
}

const fromBase64Url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
  },
});

Deno.test({
  name: 'offline key: an offender gets 32 random bytes and the limits, no-store; the same key all session',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const r = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.success, true);
    assert.match(r.headers.get('cache-control') ?? '', /no-store/);
    const key = r.body.data;
    assert.equal(fromBase64Url(key.key).length, 32);
    assert.equal(key.userId, o.id);
    assert.deepEqual(
      [key.lockMinutes, key.idleMinutes, key.prefetchCount, key.storageBudgetMb],
      [5, 30, 10, 200],
    );
    assert.ok(new Date(key.expiresAt).getTime() > Date.now());
    const again = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    assert.equal(again.body.data.key, key.key);
    // Audited once per session, not per call.
    assert.equal(await auditCount('offline_key_issued', { resourceId: o.sessionId }), 1);
    // Another session of the same person has a key of its own.
    const other = await signIn(t, o.username, o.secret, o.ip);
    const second = await call(t, 'GET', '/api/auth/offline-key', { token: other, ip: o.ip });
    assert.notEqual(second.body.data.key, key.key);
  },
});

Deno.test({
  name: 'offline key: attorneys, representatives and staff get 403; no token 401',
  ...DB_TEST,
  fn: async () => {
    for (const who of [DEMO.attorney, DEMO.representative, DEMO.admin, DEMO.approver]) {
      const token = await signIn(t, who[0], who[1]);
      const r = await call(t, 'GET', '/api/auth/offline-key', { token });
      assert.equal(r.status, 403, `${who[0]}`);
      assert.equal(r.body.success, false);
    }
    assert.equal((await call(t, 'GET', '/api/auth/offline-key')).status, 401);
    const [staff] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from sessions s join users u on u.id = s.user_id
      where u.role <> 'offender' and s.data_key is not null`;
    assert.equal(staff.n, 0, 'no staff session ever holds a key');
  },
});

Deno.test({
  name: 'offline key: the lock time is clamped to the idle limit',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    await setNumberSetting(t, 'tablet_lock_minutes', 20);
    await setNumberSetting(t, 'session_idle_minutes', 10);
    try {
      const r = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
      assert.equal(r.body.data.lockMinutes, 10);
      assert.equal(r.body.data.idleMinutes, 10);
    } finally {
      await setNumberSetting(t, 'tablet_lock_minutes', 5);
      await setNumberSetting(t, 'session_idle_minutes', 30);
    }
  },
});

Deno.test({
  name:
    'offline key: gone (null) after logout, idle expiry and entity deactivation; an ended session gets 401',
  ...DB_TEST,
  fn: async () => {
    // Logout.
    const a = await offenderWithMail(freshIp());
    assert.equal((await call(t, 'GET', '/api/auth/offline-key', { token: a.token, ip: a.ip })).status, 200);
    assert.ok((await sessionRow(a.sessionId)).data_key);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token: a.token, ip: a.ip })).status, 200);
    assert.equal((await sessionRow(a.sessionId)).data_key, null);
    assert.equal((await call(t, 'GET', '/api/auth/offline-key', { token: a.token, ip: a.ip })).status, 401);
    assert.equal((await sessionRow(a.sessionId)).data_key, null, 'an ended session never gets a new key');

    // The idle limit: the guard ends the lapsed session and its key with it.
    const b = await offenderWithMail(freshIp());
    await call(t, 'GET', '/api/auth/offline-key', { token: b.token, ip: b.ip });
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '31 minutes' where id = ${b.sessionId}`;
    assert.equal((await call(t, 'GET', '/api/auth/offline-key', { token: b.token, ip: b.ip })).status, 401);
    const ended = await sessionRow(b.sessionId);
    assert.ok(ended.revoked_at);
    assert.equal(ended.data_key, null);

    // The entity deactivated: every session of its users ends, keys included.
    const c = await offenderWithMail(freshIp());
    await call(t, 'GET', '/api/auth/offline-key', { token: c.token, ip: c.ip });
    const [entity] = await t.deps.sql<{ id: string }[]>`select id from entities where slug = 'default'`;
    await t.deps.sql.begin(async (tx) => {
      await revoke_entity_sessions(tx, entity.id);
      assert.equal(
        (await tx`select 1 from sessions where id = ${c.sessionId} and data_key is null`).length,
        1,
      );
      // Rolled back: the rest of this file's sessions live in the same entity.
      throw new RollBack();
    }).catch((e) => {
      if (!(e instanceof RollBack)) throw e;
    });
  },
});

class RollBack extends Error {}

Deno.test({
  name: 'offline key: the hourly purge destroys the keys of sessions that lapsed with nobody coming back',
  ...DB_TEST,
  fn: async () => {
    const lapsed = await offenderWithMail(freshIp());
    const live = await offenderWithMail(freshIp());
    for (const o of [lapsed, live]) {
      await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    }
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '31 minutes' where id = ${lapsed.sessionId}`;
    await purgeExpiredDocuments(t.deps);
    assert.equal((await sessionRow(lapsed.sessionId)).data_key, null);
    assert.ok((await sessionRow(live.sessionId)).data_key, 'a live session keeps its key');
  },
});

Deno.test({
  name: 'unlock: the right PIN answers the key; a wrong one 403 with a plain message, audited',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const key = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    const wrong = await call(t, 'POST', '/api/auth/unlock', {
      token: o.token,
      ip: o.ip,
      body: { pin: '000000' },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.message, 'The PIN is not correct.');
    assert.equal(await auditCount('unlock_failed', { resourceId: o.sessionId }), 1);
    const right = await call(t, 'POST', '/api/auth/unlock', {
      token: o.token,
      ip: o.ip,
      body: { pin: o.secret },
    });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal(right.body.data.key, key.body.data.key);
    assert.equal(right.body.data.userId, o.id);
    assert.equal(await auditCount('session_unlocked', { resourceId: o.sessionId }), 1);
    // A right PIN forgives: three more wrong ones after it meet no wait (the third is the last free try).
    for (let i = 0; i < 3; i++) {
      const r = await call(t, 'POST', '/api/auth/unlock', {
        token: o.token,
        ip: o.ip,
        body: { pin: '999999' },
      });
      assert.equal(r.status, 403);
    }
    assert.equal((await sessionRow(o.sessionId)).revoked_at, null);
    // Bad input is a 400, never a check.
    const empty = await call(t, 'POST', '/api/auth/unlock', { token: o.token, ip: o.ip, body: {} });
    assert.equal(empty.status, 400);
  },
});

/** Moves the account's last failure back a minute, as waiting out its longest delay would. */
async function waitOutDelay(userId: string) {
  await t.deps.sql`update login_lockouts set last_failure_at = last_failure_at - interval '1 minute'
                   where username = (select username from users where id = ${userId})`;
}

Deno.test({
  name:
    'unlock: wrong PINs (anyone can type them) slow the account (429 with the wait) but never end the session, and the right PIN opens it once the wait has passed',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const key = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    assert.equal((await call(t, 'POST', '/api/auth/lock', { token: o.token, ip: o.ip })).status, 200);
    const unlock = (pin: string) =>
      call(t, 'POST', '/api/auth/unlock', { token: o.token, ip: o.ip, body: { pin } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await unlock('000000')).status);
    assert.deepEqual(statuses, [403, 403, 403, 429, 429]);
    const row = await sessionRow(o.sessionId);
    assert.equal(row.revoked_at, null, "the owner's session stays");
    assert.ok(row.data_key, "and so does its key, for the owner's PIN");
    assert.equal(await auditCount('account_locked', { userId: o.id }), 0);
    // While the wait runs, the right PIN too is refused for now (not checked), and the session stays locked.
    const early = await unlock(o.secret);
    assert.equal(early.status, 429);
    assert.equal(early.body.code, 'unlock_wait');
    // How long, in the refusal: the seconds left.
    assert.ok(Number(early.body.detail) >= 1 && Number(early.body.detail) <= 5, early.body.detail);
    assert.equal(
      early.body.message,
      `Too many wrong PINs. Please wait ${early.body.detail} second${
        early.body.detail === '1' ? '' : 's'
      } and enter your PIN again.`,
    );
    assert.equal(early.headers.get('retry-after'), early.body.detail);
    assert.equal((await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip })).status, 423);
    // Two more wrong PINs, each after its wait: five in all, and the owner still gets in after the next wait.
    for (let i = 0; i < 2; i++) {
      await waitOutDelay(o.id);
      assert.equal((await unlock('000000')).status, 403);
    }
    assert.equal((await unlock(o.secret)).body.code, 'unlock_wait');
    await waitOutDelay(o.id);
    const back = await unlock(o.secret);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.data.key, key.body.data.key);
  },
});

Deno.test({
  name:
    "unlock: the 100th wrong PIN in a row locks the account for 24 hours, said in minutes; the session stays for an admin's Unlock",
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    assert.equal((await call(t, 'POST', '/api/auth/lock', { token: o.token, ip: o.ip })).status, 200);
    const unlock = (pin: string) =>
      call(t, 'POST', '/api/auth/unlock', { token: o.token, ip: o.ip, body: { pin } });
    assert.equal((await unlock('000000')).status, 403);
    await t.deps
      .sql`update login_lockouts set consecutive_failures = 99, last_failure_at = now() - interval '1 minute'
                     where username = ${o.username}`;
    const hundredth = await unlock('000000');
    assert.equal(hundredth.status, 429);
    assert.equal(hundredth.body.code, 'unlock_locked');
    assert.equal(hundredth.body.detail, '1440');
    assert.equal(await auditCount('account_locked', { userId: o.id }), 1);
    assert.equal((await unlock(o.secret)).body.code, 'unlock_locked');
    assert.equal((await sessionRow(o.sessionId)).revoked_at, null);
  },
});

Deno.test({
  name:
    'unlock: wrong PINs sent at once: only the free tries are checked, the rest told to wait; none gets through and the session stays',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const answers = await Promise.all(
      Array.from(
        { length: 8 },
        () => call(t, 'POST', '/api/auth/unlock', { token: o.token, ip: o.ip, body: { pin: '000000' } }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    assert.ok(statuses.every((s) => [403, 429].includes(s)), statuses.join());
    assert.ok(statuses.filter((s) => s === 403).length <= 3, statuses.join());
    assert.equal(await auditCount('account_locked', { userId: o.id }), 0);
    assert.equal((await sessionRow(o.sessionId)).revoked_at, null);
  },
});

Deno.test({
  name:
    'unlock: an account slowed by failed sign-ins elsewhere makes the lock screen wait too (429), session kept',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const elsewhere = freshIp();
    for (let i = 0; i < 5; i++) {
      await call(t, 'POST', '/api/auth/login', {
        body: { username: o.username, password: '000000', entity: 'default' },
        ip: elsewhere,
      });
    }
    const r = await call(t, 'POST', '/api/auth/unlock', {
      token: o.token,
      ip: o.ip,
      body: { pin: o.secret },
    });
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'unlock_wait');
    assert.equal((await sessionRow(o.sessionId)).revoked_at, null);
  },
});

Deno.test({
  name:
    'lock: a locked session is refused everything but unlock and logout (423); the key comes back only with the PIN',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const key = await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip });
    assert.equal(key.status, 200);
    const locked = await call(t, 'POST', '/api/auth/lock', { token: o.token, ip: o.ip });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    assert.equal(await auditCount('session_locked', { resourceId: o.sessionId }), 1);
    // Locking again changes nothing and is not audited again.
    assert.equal((await call(t, 'POST', '/api/auth/lock', { token: o.token, ip: o.ip })).status, 200);
    assert.equal(await auditCount('session_locked', { resourceId: o.sessionId }), 1);
    const refused: [string, string, unknown?][] = [
      ['GET', '/api/auth/offline-key'],
      ['GET', '/api/auth/me'],
      ['GET', `/api/documents/offender/${o.username}`],
      ['GET', '/api/documents/mine'],
      ['GET', `/api/documents/view/${o.documentId}`],
      ['GET', `/api/documents/print/${o.documentId}`],
      ['GET', `/api/documents/prefetch/${o.documentId}`],
      ['GET', `/api/documents/${o.documentId}/info`],
      ['POST', '/api/documents/offline-events', { events: [] }],
      ['POST', '/api/auth/password', { currentPassword: o.secret, newPassword: 'Another-Long-Passphrase-9' }],
    ];
    for (const [method, path, body] of refused) {
      const r = await call(t, method, path, { token: o.token, ip: o.ip, body });
      assert.equal(r.status, 423, `${method} ${path} while locked: ${r.status}`);
      assert.equal(r.body.code, 'session_locked');
      assert.equal(r.body.message, 'This tablet is locked. Please enter your PIN.');
    }
    // A wrong PIN leaves it locked; the right one answers the same key and lifts the lock.
    const wrong = await call(t, 'POST', '/api/auth/unlock', {
      token: o.token,
      ip: o.ip,
      body: { pin: '000000' },
    });
    assert.equal(wrong.status, 403);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: o.token, ip: o.ip })).status, 423);
    const right = await call(t, 'POST', '/api/auth/unlock', {
      token: o.token,
      ip: o.ip,
      body: { pin: o.secret },
    });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal(right.body.data.key, key.body.data.key);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: o.token, ip: o.ip })).status, 200);
    assert.equal((await call(t, 'GET', '/api/auth/offline-key', { token: o.token, ip: o.ip })).status, 200);
    // Signing out is allowed while locked, and ends the session with its key.
    await call(t, 'POST', '/api/auth/lock', { token: o.token, ip: o.ip });
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token: o.token, ip: o.ip })).status, 200);
    const row = await sessionRow(o.sessionId);
    assert.ok(row.revoked_at);
    assert.equal(row.data_key, null);
    assert.equal(
      (await call(t, 'POST', '/api/auth/unlock', { token: o.token, ip: o.ip, body: { pin: o.secret } }))
        .status,
      401,
    );
  },
});

Deno.test({
  name: 'prefetch: the recipient gets the bytes like view, no read time, audited once; anyone else 404',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp(), 'Prefetched');
    const get = (token: string, headers: Record<string, string> = {}) =>
      t.app.request(`/api/documents/prefetch/${o.documentId}`, {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
    const view = await t.app.request(`/api/documents/view/${o.documentId}`, {
      headers: { authorization: `Bearer ${attorney}` },
    });
    const expected = new Uint8Array(await view.arrayBuffer());
    const r = await get(o.token);
    assert.equal(r.status, 200);
    assert.equal(await sha256Hex(new Uint8Array(await r.arrayBuffer())), await sha256Hex(expected));
    assert.equal(r.headers.get('content-type'), 'application/pdf');
    assert.equal(r.headers.get('cache-control'), 'private, no-store');
    assert.equal(r.headers.get('etag'), `"${await sha256Hex(expected)}"`);
    const partial = await get(o.token, { range: 'bytes=0-9' });
    assert.equal(partial.status, 206);
    assert.equal((await partial.arrayBuffer()).byteLength, 10);
    assert.equal(await viewedAt(o.documentId), null, 'prefetching is not reading');
    assert.equal(await auditCount('document_prefetched', { resourceId: o.documentId }), 1);
    assert.equal(
      await auditCount('document_viewed', { resourceId: o.documentId }),
      1,
      "only the sender's view",
    );

    // Another offender: the same 404 as any document not theirs. The sender may view it but never caches it:
    // prefetching is the offender's route (403 for every other role, as the authorization matrix checks).
    assert.equal((await get(attorney)).status, 403);
    const other = await offenderWithMail(freshIp());
    {
      const refused = await get(other.token);
      assert.equal(refused.status, 404);
      assert.deepEqual(await refused.json(), {
        success: false,
        message: 'Document not found.',
        code: 'document_not_found',
      });
    }
    const missing = await t.app.request(`/api/documents/prefetch/${crypto.randomUUID()}`, {
      headers: { authorization: `Bearer ${o.token}` },
    });
    assert.equal(missing.status, 404);
  },
});

/**
 * The tablet fetched the document ahead for offline reading, so its bytes reached the session. The sign-in and
 * that fetch are moved five minutes back and the upload six, so readings stamped in the last minutes lie after all
 * three, as they do on a tablet that went offline after fetching.
 */
async function received(o: { token: string; sessionId: string; documentId: string }) {
  const r = await t.app.request(`/api/documents/prefetch/${o.documentId}`, {
    headers: { authorization: `Bearer ${o.token}` },
  });
  assert.equal(r.status, 200);
  await r.arrayBuffer();
  await t.deps
    .sql`update sessions set created_at = created_at - interval '5 minutes' where id = ${o.sessionId}`;
  await t.deps
    .sql`update documents set uploaded_at = uploaded_at - interval '6 minutes' where id = ${o.documentId}`;
  await t.deps.sql`update document_read_audits set first_served_at = s.created_at from sessions s
                   where s.id = ${o.sessionId} and session_id = s.id and document_id = ${o.documentId}`;
}

const send = (o: { token: string; ip: string }, events: unknown[]) =>
  call(t, 'POST', '/api/documents/offline-events', { token: o.token, ip: o.ip, body: { events } });

Deno.test({
  name:
    'offline events: recorded once whatever the retries, marked offline at the real time, set the read time',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    await received(o);
    const occurredAt = new Date(Date.now() - 20_000).toISOString();
    const printedAt = new Date(Date.now() - 10_000).toISOString();
    const events = [
      { id: crypto.randomUUID(), documentId: o.documentId, kind: 'view', occurredAt },
      { id: crypto.randomUUID(), documentId: o.documentId, kind: 'print', occurredAt: printedAt },
    ];
    for (let i = 0; i < 2; i++) {
      const r = await send(o, events);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { success: true, data: { recorded: events.map((e) => e.id), refused: [] } });
    }
    assert.equal(await auditCount('document_viewed', { clientEventId: events[0].id }), 1);
    assert.equal(await auditCount('document_printed', { clientEventId: events[1].id }), 1);
    const [audit] = await t.deps.sql<{ event_data: Record<string, unknown>; user_id: string }[]>`
      select event_data, user_id from audit_logs where event_data->>'clientEventId' = ${events[0].id}`;
    assert.equal(audit.user_id, o.id);
    assert.equal(audit.event_data.offline, true);
    assert.equal(audit.event_data.occurredAt, occurredAt);
    assert.equal(
      (await viewedAt(o.documentId))?.toISOString(),
      occurredAt,
      'the first reading sets the read time',
    );

    // A later online view never moves the read time; an earlier offline one (sent late) does.
    await t.app.request(`/api/documents/view/${o.documentId}`, {
      headers: { authorization: `Bearer ${o.token}` },
    });
    await t.app.request(`/api/documents/shown/${o.documentId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.token}` },
    });
    assert.equal((await viewedAt(o.documentId))?.toISOString(), occurredAt);
    // Outside the read-audit window of the first (one reading per window is recorded).
    const earlier = new Date(Date.now() - 3 * 60_000).toISOString();
    await setNumberSetting(t, 'document_read_audit_window_minutes', 1);
    try {
      await send(o, [{
        id: crypto.randomUUID(),
        documentId: o.documentId,
        kind: 'view',
        occurredAt: earlier,
      }]);
    } finally {
      await setNumberSetting(t, 'document_read_audit_window_minutes', 10);
    }
    assert.equal((await viewedAt(o.documentId))?.toISOString(), earlier);
  },
});

Deno.test({
  name: 'offline events: the same batch sent concurrently is recorded once, one view and one print',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    await received(o);
    const events = Array.from({ length: 5 }, (_, i) => ({
      id: crypto.randomUUID(),
      documentId: o.documentId,
      kind: i % 2 ? 'print' : 'view',
      occurredAt: new Date(Date.now() - 5_000 - i * 1000).toISOString(),
    }));
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(o, events)));
    for (const r of answers) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.recorded.sort(), events.map((e) => e.id).sort());
      assert.deepEqual(r.body.data.refused, []);
    }
    // Five readings within the read-audit window: one view and one print stand for them all.
    assert.equal(await auditCount('document_viewed', { userId: o.id }), 1);
    assert.equal(await auditCount('document_printed', { userId: o.id }), 1);
    const [rows] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from offline_read_events where session_id = ${o.sessionId}`;
    assert.equal(rows.n, 2);
  },
});

Deno.test({
  name: "offline events: refused for good are other people's or unknown documents and impossible times",
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    await received(o);
    const other = await offenderWithMail(freshIp());
    const now = Date.now();
    const [session] = await t.deps.sql<{ created_at: Date }[]>`
      select created_at from sessions where id = ${o.sessionId}`;
    const ok = {
      id: crypto.randomUUID(),
      documentId: o.documentId,
      kind: 'view',
      occurredAt: new Date(now).toISOString(),
    };
    const othersDoc = { ...ok, id: crypto.randomUUID(), documentId: other.documentId };
    const unknownDoc = { ...ok, id: crypto.randomUUID(), documentId: crypto.randomUUID() };
    const notAnId = { ...ok, id: crypto.randomUUID(), documentId: 'not-a-document' };
    const beforeSession = {
      ...ok,
      id: crypto.randomUUID(),
      occurredAt: new Date(new Date(session.created_at).getTime() - 120_000).toISOString(),
    };
    const future = { ...ok, id: crypto.randomUUID(), occurredAt: new Date(now + 10 * 60_000).toISOString() };
    const r = await send(o, [ok, othersDoc, unknownDoc, notAnId, beforeSession, future]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.data.recorded, [ok.id]);
    const notFound = 'Document not found.';
    const impossible = 'The time of this reading is not possible.';
    assert.deepEqual(r.body.data.refused, [
      { id: othersDoc.id, message: notFound },
      { id: unknownDoc.id, message: notFound },
      { id: notAnId.id, message: notFound },
      { id: beforeSession.id, message: impossible },
      { id: future.id, message: impossible },
    ]);
    assert.equal(await viewedAt(other.documentId), null, "another's document is never marked read");
    assert.equal(await auditCount('document_viewed', { clientEventId: othersDoc.id }), 0);
    // Clock skew within the allowance is taken: a minute-less-a-bit before the session, a minute ahead.
    const skewed = [
      {
        ...ok,
        id: crypto.randomUUID(),
        occurredAt: new Date(new Date(session.created_at).getTime() - 50_000).toISOString(),
      },
      { ...ok, id: crypto.randomUUID(), occurredAt: new Date(Date.now() + 60_000).toISOString() },
    ];
    assert.deepEqual((await send(o, skewed)).body.data.recorded, skewed.map((e) => e.id));
    // An id reused for a different reading is refused, and the first stays as it was.
    const reused = await send(o, [{ ...ok, kind: 'print' }]);
    assert.deepEqual(reused.body.data.refused, [{
      id: ok.id,
      message: 'This reading was already recorded as a different one.',
    }]);
    // Another person's session cannot claim or replay this session's event ids.
    const replay = await send(other, [{ ...ok, documentId: other.documentId }]);
    assert.equal(replay.body.data.recorded.length, 0);
  },
});

Deno.test({
  name: 'offline events: bad batches are 400 (more than 100, a non-UUID id, a bad time or kind)',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail(freshIp());
    const event = () => ({
      id: crypto.randomUUID(),
      documentId: o.documentId,
      kind: 'view',
      occurredAt: new Date().toISOString(),
    });
    const tooMany = await send(o, Array.from({ length: 101 }, event));
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.message, 'Please send at most 100 events at once.');
    for (const bad of [{ id: 'x' }, { occurredAt: 'yesterday' }, { kind: 'download' }]) {
      const r = await send(o, [{ ...event(), ...bad }]);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.body.success, false);
    }
    const notJson = await call(t, 'POST', '/api/documents/offline-events', {
      token: o.token,
      ip: o.ip,
      body: { events: 'all of them' },
    });
    assert.equal(notJson.status, 400);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
