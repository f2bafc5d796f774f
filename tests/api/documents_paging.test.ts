/**
 * The sender lists' server-side paging: GET /api/documents/attorney and GET /api/representative/documents
 * with q, sort, order, pageSize and page / after / before. Every page is checked against the whole list (the
 * answer without paging parameters) ordered here by the same rules, so the server's search, sort and keyset
 * paging are proven row by row, ties included.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, signIn, type TestApp } from '../support/app.ts';
import { insertDocument } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { startsAWord } from '../../contract/rules/search.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const SORTS = ['name', 'offenderdocnumber', 'date', 'pages', 'eformDue'] as const;
type Sort = (typeof SORTS)[number];
type Row = {
  documentid: string;
  name: string;
  offenderdocnumber: string;
  pages: number;
  date: string;
  sender_name: string;
};

/** A's titles: equal names, every case, and the characters LIKE would treat as wildcards. */
const TITLES = ['Same', 'Report A', 'REPORT b', 'apple', 'Zebra', 'My report', 'Letter'];
const PAGES = [12, 120, 212, 1, 0, 12];
const BASE = Date.parse('2026-11-01T12:00:00.000Z');

Deno.test({
  name:
    'setup: 35 documents of one attorney, 7 of their representative (5 shared), others and an expired one',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    const a = await makeUser(t, { role: 'attorney', firstName: 'Ann', lastName: 'Attorney' });
    const b = await makeUser(t, { role: 'attorney' });
    const r = await makeUser(t, {
      role: 'representative',
      firstName: 'Riley',
      lastName: "O'Paralegal",
      supervisingAttorneyId: a.id,
      supervisorAccepted: true,
    });
    const r2 = await makeUser(t, { role: 'representative' });
    const offenders = await Promise.all(
      ['K100200', 'k100300', '7770001'].map((docNumber) => makeUser(t, { role: 'offender', docNumber })),
    );
    for (const [name, user] of Object.entries({ a, b, r, r2 })) {
      tokens[name] = await signIn(t, user.username, user.secret);
      ids[name] = user.id;
    }
    // Recent enough never to expire during the run (retention 90 days), in threes of equal upload times.
    const now = Date.now();
    for (let i = 0; i < 35; i++) {
      const title = i === 33
        ? '100%_done'
        : i === 34
        ? '100x_done'
        : `${TITLES[i % 7]}${i % 7 === 6 ? ` ${i}` : ''}`;
      await insertDocument(t, {
        senderId: a.id,
        recipientId: offenders[i % 3].id,
        title,
        pages: PAGES[i % 6],
        uploadedAt: new Date(now - 3600_000 * (Math.floor(i / 3) + 1)),
      });
    }
    for (let i = 0; i < 7; i++) {
      await insertDocument(t, {
        senderId: r.id,
        recipientId: offenders[0].id,
        title: `Rep ${i}`,
        pages: 3,
        uploadedAt: new Date(now - 60_000 * (i + 1)),
        supervisingAttorneyId: i < 5 ? a.id : null,
      });
    }
    for (const sender of [b, r2]) {
      for (let i = 0; i < 3; i++) {
        await insertDocument(t, { senderId: sender.id, recipientId: offenders[0].id, title: 'Report other' });
      }
    }
    // Past the 90-day retention: never listed, whatever the parameters.
    await insertDocument(t, {
      senderId: a.id,
      recipientId: offenders[0].id,
      title: 'Report expired',
      pages: 12,
      uploadedAt: new Date(BASE - 200 * 86400_000),
    });
    await insertDocument(t, {
      senderId: r.id,
      recipientId: offenders[0].id,
      title: 'Report expired rep',
      supervisingAttorneyId: a.id,
      uploadedAt: new Date(BASE - 200 * 86400_000),
    });
  },
});

const LIST = { a: '/api/documents/attorney', r: '/api/representative/documents' } as const;

async function get(
  who: keyof typeof LIST,
  params: Record<string, string | number> = {},
  token = tokens[who],
) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const path = `${LIST[who]}${query.size ? `?${query}` : ''}`;
  return await call(t, 'GET', path, { token });
}

/** The whole list (no paging parameters), as every client before paging reads it. */
async function wholeList(who: keyof typeof LIST): Promise<Row[]> {
  const r = await get(who);
  assert.equal(r.status, 200);
  assert.equal(r.body.total, undefined, 'the whole list keeps its old shape');
  return r.body.documents;
}

/** The server's order, written again here: case-insensitive byte order, times, numbers; ties by id. */
function expected(rows: Row[], sort: Sort, order: 'asc' | 'desc', q = ''): Row[] {
  const key = (row: Row): string | number =>
    sort === 'name'
      ? row.name.toLowerCase()
      : sort === 'offenderdocnumber'
      ? row.offenderdocnumber.toLowerCase()
      : sort === 'pages'
      ? row.pages
      : Date.parse(row.date);
  const needle = q.trim().toLowerCase();
  const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
  return rows
    .filter((row) =>
      needle === '' ||
      [row.name, row.offenderdocnumber, row.sender_name].some((v) => startsAWord(v, needle)) ||
      String(row.pages).startsWith(needle)
    )
    .sort((x, y) => (order === 'asc' ? 1 : -1) * (cmp(key(x), key(y)) || cmp(x.documentid, y.documentid)));
}

const idsOf = (rows: Row[]) => rows.map((row) => row.documentid);

Deno.test({
  name: 'without paging parameters the answer is the whole list as before: own, shared, never expired',
  ...DB_TEST,
  fn: async () => {
    const all = await wholeList('a');
    assert.equal(all.length, 40);
    assert.ok(!all.some((row) => /expired|other/.test(row.name)));
    assert.equal(all.filter((row) => row.name.startsWith('Rep ')).length, 5);
    const rep = await wholeList('r');
    assert.equal(rep.length, 7);
  },
});

Deno.test({
  name: 'every sort key in both orders: Next walks every row once, Previous walks back the same pages',
  ...DB_TEST,
  fn: async () => {
    const all = await wholeList('a');
    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const want = expected(all, sort, order);
        const pages: string[][] = [];
        let r = await get('a', { sort, order, pageSize: 10 });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.prevCursor, null);
        for (;;) {
          assert.equal(r.body.total, 40);
          assert.equal(r.body.offset, pages.length * 10, `${sort} ${order} offset`);
          assert.equal(r.body.sort, sort);
          assert.equal(r.body.order, order);
          pages.push(idsOf(r.body.documents));
          if (r.body.nextCursor === null) break;
          r = await get('a', { sort, order, pageSize: 10, after: r.body.nextCursor });
          assert.equal(r.status, 200, JSON.stringify(r.body));
        }
        assert.deepEqual(pages.flat(), idsOf(want), `${sort} ${order} forwards`);
        assert.deepEqual(pages.map((p) => p.length), [10, 10, 10, 10]);
        for (let i = pages.length - 2; i >= 0; i--) {
          r = await get('a', { sort, order, pageSize: 10, before: r.body.prevCursor });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.deepEqual(idsOf(r.body.documents), pages[i], `${sort} ${order} back to page ${i + 1}`);
          assert.equal(r.body.offset, i * 10);
        }
        assert.equal(r.body.prevCursor, null);
      }
    }
  },
});

Deno.test({
  name:
    'the default is name ascending, 10 a page; a numbered page jumps by offset and past the end is the last',
  ...DB_TEST,
  fn: async () => {
    const want = idsOf(expected(await wholeList('a'), 'name', 'asc'));
    const first = await get('a', { pageSize: 10 });
    assert.deepEqual(idsOf(first.body.documents), want.slice(0, 10));
    const plain = await get('a', { q: '' });
    assert.equal(plain.body.pageSize, 10);
    assert.deepEqual(idsOf(plain.body.documents), want.slice(0, 10));
    const third = await get('a', { page: 3, pageSize: 10 });
    assert.equal(third.body.offset, 20);
    assert.deepEqual(idsOf(third.body.documents), want.slice(20, 30));
    assert.notEqual(third.body.prevCursor, null);
    const next = await get('a', { pageSize: 10, after: third.body.nextCursor });
    assert.deepEqual(idsOf(next.body.documents), want.slice(30, 40));
    assert.equal(next.body.nextCursor, null);
    const past = await get('a', { page: 99, pageSize: 25 });
    assert.equal(past.body.offset, 25);
    assert.deepEqual(idsOf(past.body.documents), want.slice(25));
    const big = await get('a', { pageSize: 100 });
    assert.equal(big.body.documents.length, 40);
    assert.equal(big.body.nextCursor, null);
  },
});

Deno.test({
  name:
    "search finds the start of any word of the name, the DOC number or the sender's name, or the start of the pages",
  ...DB_TEST,
  fn: async () => {
    const all = await wholeList('a');
    for (
      const q of [
        'report',
        'REPORT',
        'Rep',
        'k1003',
        'K100',
        '12',
        '0',
        '1',
        'same',
        '  apple ',
        'zzz',
        'ort',
      ]
        .concat(['paralegal', "o'para", 'riley o', 'ann', 'attorney', 'b', 'letter 2', '%', '6'])
    ) {
      const want = expected(all, 'name', 'asc', q);
      const r = await get('a', { q, pageSize: 100 });
      assert.equal(r.status, 200);
      assert.equal(r.body.total, want.length, `q=${q}`);
      assert.deepEqual(idsOf(r.body.documents), idsOf(want), `q=${q}`);
    }
    // 'My report' has a word that starts with 'report'; no title has a word starting 'ort'.
    const report = await get('a', { q: 'report', pageSize: 100 });
    assert.ok(report.body.documents.some((d: Row) => d.name === 'My report'));
    assert.ok(report.body.documents.every((d: Row) => /(^|\s)report/i.test(d.name)));
    assert.equal((await get('a', { q: 'ort', pageSize: 100 })).body.total, 0, 'not inside a word');
    // "paralegal" is the second word of the representative's last name (after an apostrophe): the 5 shared.
    const paralegal = await get('a', { q: 'paralegal', pageSize: 100 });
    assert.deepEqual(
      paralegal.body.documents.map((d: Row) => d.name).sort(),
      ['Rep 0', 'Rep 1', 'Rep 2', 'Rep 3', 'Rep 4'],
    );
    // 'Letter 6' is found by '6', 'Letter 13' is not; the pages only from their start: 12 and 120, not 212.
    const six = await get('a', { q: '6', pageSize: 100 });
    assert.ok(six.body.documents.some((d: Row) => d.name === 'Letter 6'));
    assert.ok(!six.body.documents.some((d: Row) => d.name === 'Letter 13'));
    const twelve = await get('a', { q: '12', pageSize: 100 });
    assert.deepEqual(
      [...new Set(twelve.body.documents.map((d: Row) => d.pages))].sort(),
      [12, 120],
    );
    // The representative's own list: their documents, by a word of their name too.
    assert.equal((await get('r', { q: 'riley', pageSize: 100 })).body.total, 7);
  },
});

Deno.test({
  name: 'search text is never a pattern: % and _ match only themselves, and quotes are plain text',
  ...DB_TEST,
  fn: async () => {
    const percent = await get('a', { q: '100%', pageSize: 100 });
    assert.deepEqual(percent.body.documents.map((d: Row) => d.name), ['100%_done']);
    const underscore = await get('a', { q: '100_', pageSize: 100 });
    assert.equal(underscore.body.total, 0);
    const wildcard = await get('a', { q: '%', pageSize: 100 });
    assert.equal(wildcard.body.total, 0);
    const quote = await get('a', { q: "x' or '1'='1", pageSize: 100 });
    assert.equal(quote.status, 200);
    assert.equal(quote.body.total, 0);
  },
});

Deno.test({
  name: 'search and keyset paging together: Next pages of a search keep to it',
  ...DB_TEST,
  fn: async () => {
    const want = idsOf(expected(await wholeList('a'), 'pages', 'desc', 'r'));
    assert.ok(want.length > 5);
    const seen: string[] = [];
    let r = await get('a', { q: 'r', sort: 'pages', order: 'desc', pageSize: 5 });
    for (;;) {
      assert.equal(r.body.total, want.length);
      seen.push(...idsOf(r.body.documents));
      if (!r.body.nextCursor) break;
      r = await get('a', { q: 'r', sort: 'pages', order: 'desc', pageSize: 5, after: r.body.nextCursor });
    }
    assert.deepEqual(seen, want);
  },
});

Deno.test({
  name: 'a bad cursor, sort, order, page, page size or a mix of starts is a 400 with a plain message',
  ...DB_TEST,
  fn: async () => {
    const page = await get('a', { sort: 'date', pageSize: 10 });
    const cursor = page.body.nextCursor as string;
    const forged = btoa(JSON.stringify({ s: 'pages', o: 'asc', v: '1) or (1=1', i: ids.a }))
      .replace(/=+$/, '');
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ after: 'not a cursor!' }, /cursor is not valid/],
      [{ before: 'bm90IGpzb24' }, /cursor is not valid/],
      [{ after: forged }, /cursor is not valid/],
      [{ after: 'x'.repeat(5000) }, /cursor is not valid/],
      [{ after: cursor }, /belongs to another sort/],
      [{ after: cursor, sort: 'date', order: 'desc' }, /belongs to another sort/],
      [{ sort: 'title' }, /Sort must be one of name, offenderdocnumber, date, pages, eformDue/],
      [{ order: 'up' }, /Order must be 'asc' or 'desc'/],
      [{ pageSize: 0 }, /Page size must be a whole number from 1 to 100/],
      [{ pageSize: 101 }, /Page size must be a whole number from 1 to 100/],
      [{ pageSize: 'ten' }, /Page size must be a whole number from 1 to 100/],
      [{ pageSize: 2.5 }, /Page size must be a whole number from 1 to 100/],
      [{ page: 0 }, /Page must be a whole number from 1/],
      [{ page: 2, after: cursor, sort: 'date' }, /only one of page, after and before/],
      [{ q: 'x'.repeat(201) }, /Search is too long/],
    ];
    for (const [params, message] of cases) {
      const r = await get('a', params);
      assert.equal(r.status, 400, JSON.stringify(params));
      assert.equal(r.body.success, false);
      assert.match(r.body.message, message, JSON.stringify(params));
      const rep = await get('r', params);
      assert.equal(rep.status, 400, `representative ${JSON.stringify(params)}`);
    }
    const twice = await call(t, 'GET', `${LIST.a}?q=a&q=b`, { token: tokens.a });
    assert.equal(twice.status, 400);
    assert.match(twice.body.message, /Search must be given once/);
    // The cursor of the right sort still works.
    const ok = await get('a', { sort: 'date', pageSize: 10, after: cursor });
    assert.equal(ok.status, 200);
  },
});

Deno.test({
  name: "another attorney's, an unshared representative's and expired documents never appear in any page",
  ...DB_TEST,
  fn: async () => {
    for (const sort of SORTS) {
      const r = await get('a', { sort, pageSize: 100, q: 'rep' });
      assert.ok(r.body.documents.every((d: Row) => !/other|expired/.test(d.name)), sort);
      const all = await get('a', { sort, pageSize: 100 });
      assert.equal(all.body.total, 40);
    }
    const b = await get('a', { pageSize: 100 }, tokens.b);
    assert.equal(b.body.total, 3);
    assert.ok(b.body.documents.every((d: Row) => d.name === 'Report other'));
    // A cursor from one attorney's list opens nothing of theirs for another.
    const mine = await get('a', { pageSize: 10 });
    const theirs = await get('a', { pageSize: 10, after: mine.body.nextCursor }, tokens.b);
    assert.equal(theirs.status, 200);
    assert.ok(theirs.body.documents.every((d: Row) => d.name === 'Report other'));
    const rep2 = await get('r', { pageSize: 100 }, tokens.r2);
    assert.equal(rep2.body.total, 3);
  },
});

Deno.test({
  name: "the representative pages their own documents; the shared ones appear in the supervisor's list",
  ...DB_TEST,
  fn: async () => {
    const all = await wholeList('r');
    const want = idsOf(expected(all, 'date', 'desc'));
    const first = await get('r', { sort: 'date', order: 'desc', pageSize: 5 });
    assert.equal(first.status, 200);
    assert.equal(first.body.total, 7);
    assert.deepEqual(idsOf(first.body.documents), want.slice(0, 5));
    assert.ok(
      first.body.documents.every((d: Row & { offenderDocNumber: string }) =>
        d.offenderDocNumber === 'K100200'
      ),
    );
    const second = await get('r', { sort: 'date', order: 'desc', pageSize: 5, after: first.body.nextCursor });
    assert.deepEqual(idsOf(second.body.documents), want.slice(5));
    assert.equal(second.body.nextCursor, null);
    // The search trims its text ('rep ' is 'rep'), so the shared ones are told by their sender.
    const shared = (await get('a', { pageSize: 100 })).body.documents.filter(
      (d: { sent_by: string }) => d.sent_by === 'representative',
    );
    assert.deepEqual(shared.map((d: Row) => d.name).sort(), ['Rep 0', 'Rep 1', 'Rep 2', 'Rep 3', 'Rep 4']);
  },
});

Deno.test({
  name: 'the lists still need their role',
  ...DB_TEST,
  fn: async () => {
    assert.equal((await get('a', { pageSize: 10 }, tokens.r)).status, 403);
    assert.equal((await get('r', { pageSize: 10 }, tokens.a)).status, 403);
    assert.equal((await call(t, 'GET', `${LIST.a}?pageSize=10`)).status, 401);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
