import assert from 'node:assert/strict';
import { fetchUsersPage, importRoster } from './usersApi.ts';

Deno.test('the roster goes out as text/csv whatever type the browser gave the file, and the report is read', async () => {
  const original = globalThis.fetch;
  const seen: Request[] = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(new URL(String(input), 'http://app.test'), init));
    const report = {
      added: 1,
      updated: 0,
      rejected: 1,
      rows: [{ line: 3, docNumber: 'X', outcome: 'rejected', reason: 'PIN' }],
    };
    return Promise.resolve(Response.json({ success: true, message: 'Roster imported', data: report }));
  };
  try {
    const file = new File(['doc_number,first_name,last_name,pin\n'], 'roster.csv', {
      type: 'application/vnd.ms-excel',
    });
    const { report } = await importRoster(file);
    assert.equal(seen[0].url, 'http://app.test/api/admin/offenders/import');
    assert.equal(seen[0].headers.get('Content-Type'), 'text/csv');
    assert.equal(await seen[0].text(), 'doc_number,first_name,last_name,pin\n');
    assert.deepEqual([report.added, report.updated, report.rejected, report.rows.length], [1, 0, 1, 1]);
  } finally {
    globalThis.fetch = original;
  }
});

Deno.test('a page of users is asked with the filters and read with its total and next cursor', async () => {
  const original = globalThis.fetch;
  const seen: string[] = [];
  globalThis.fetch = (input: RequestInfo | URL) => {
    seen.push(String(input));
    return Promise.resolve(Response.json({ success: true, users: [], nextCursor: 'abc', total: 120 }));
  };
  try {
    const page = await fetchUsersPage({ search: 'smith', role: 'offender', status: 'all' }, 'c1');
    assert.equal(seen[0], '/api/admin/users?q=smith&role=offender&limit=50&cursor=c1');
    assert.deepEqual(page, { users: [], nextCursor: 'abc', total: 120 });
  } finally {
    globalThis.fetch = original;
  }
});
