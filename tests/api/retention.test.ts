/** Retention: the setting applies at once; the purge deletes expired documents (audited), then their bytes. */
import assert from 'node:assert/strict';
import { connectPostgres } from '../../api/db/client.ts';
import { LOCK_KEYS } from '../../api/db/advisory_locks.ts';
import { purgeExpiredDocuments } from '../../api/domain/retention.ts';
import { testBackend } from '../support/db.ts';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { countDocuments, setNumberSetting, storedBlobs, upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';

for (const backend of ['fs', 'postgres'] as const) {
  let t: TestApp;
  let attorney: string;
  let offender: string;

  Deno.test({
    name: `${backend}: setup`,
    ...DB_TEST,
    fn: async () => {
      t = await createTestApp({ BLOB_STORE: backend });
      attorney = await signIn(t, ...DEMO.attorney);
      offender = await signIn(t, ...DEMO.offender);
    },
  });

  Deno.test({
    name: `${backend}: document_retention_days changed in the settings table takes effect at once`,
    ...DB_TEST,
    fn: async () => {
      const r = await upload(t, attorney, {
        file: await makePdf(),
        recipient: '100001',
        title: 'Short-lived',
      });
      const list = async () =>
        (await (await t.app.request('/api/documents/offender/100001', {
          headers: { authorization: `Bearer ${offender}` },
        })).json()).documents;
      const [row] = await list();
      assert.equal(new Date(row.deletedate).getTime() - new Date(row.date).getTime(), 90 * 86400_000);
      await setNumberSetting(t, 'document_retention_days', 30);
      const [later] = await list();
      assert.equal(new Date(later.deletedate).getTime() - new Date(later.date).getTime(), 30 * 86400_000);
      await setNumberSetting(t, 'document_retention_days', 0);
      assert.deepEqual(await list(), [], 'an expired document is never listed');
      await setNumberSetting(t, 'document_retention_days', 90);
      assert.equal((await list()).length, 1);
      // Gone by other means: its bytes are now an orphan the next collection removes.
      await t.deps.sql`delete from documents where id = ${r.body.document.documentid}`;
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 0, blobs: 1 });
    },
  });

  Deno.test({
    name: `${backend}: the purge removes expired documents, then their bytes once nothing refers to them`,
    ...DB_TEST,
    fn: async () => {
      const shared = await makePdf({ pages: 2, title: 'Shared bytes' });
      const own = await makePdf({ pages: 1, title: 'Own bytes' });
      const a =
        (await upload(t, attorney, { file: shared, recipient: '100001', title: 'Old copy' })).body.document;
      const b =
        (await upload(t, attorney, { file: shared, recipient: '100002', title: 'New copy' })).body.document;
      const c =
        (await upload(t, attorney, { file: own, recipient: '100001', title: 'Old own' })).body.document;
      await t.deps
        .sql`update documents set uploaded_at = now() - interval '91 days' where id in (${a.documentid}, ${c.documentid})`;
      const auditsBefore = (await t.deps.sql`select count(*)::int as n from audit_logs`)[0].n;

      const first = await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
      // Two blobs: the own document's, and the shared bytes' first sealed copy (the second upload sealed them anew
      // under a key of its own, and the digest now names that copy).
      assert.deepEqual(first, { documents: 2, blobs: 2 });
      assert.equal(await countDocuments(t), 1);
      assert.deepEqual(
        await storedBlobs(t),
        [b.sha256],
        'the shared bytes stay while a document refers to them',
      );
      const deleted = await t.deps
        .sql`select user_id, resource_id from audit_logs where event_type = 'document_deleted' order by id`;
      assert.deepEqual(deleted.map((r) => r.resource_id).sort(), [a.documentid, c.documentid].sort());
      assert.ok(deleted.every((r) => r.user_id === null));
      const auditsAfter = (await t.deps.sql`select count(*)::int as n from audit_logs`)[0].n;
      assert.equal(auditsAfter, auditsBefore + 2, 'the audit log only grows');
      assert.equal(
        (await t.app.request(`/api/documents/view/${a.documentid}`, {
          headers: { authorization: `Bearer ${offender}` },
        })).status,
        404,
      );

      await t.deps
        .sql`update documents set uploaded_at = now() - interval '91 days' where id = ${b.documentid}`;
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 1, blobs: 1 });
      assert.deepEqual(await storedBlobs(t), []);
    },
  });

  Deno.test({
    name: `${backend}: a fresh blob without a row (an upload about to commit) is spared by the grace period`,
    ...DB_TEST,
    fn: async () => {
      const orphan = await t.deps.blobs.put(new Blob([await makePdf() as BlobPart]).stream());
      assert.deepEqual(await purgeExpiredDocuments(t.deps), { documents: 0, blobs: 0 });
      assert.deepEqual(await storedBlobs(t), [orphan.sha256]);
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 0, blobs: 1 });
    },
  });

  Deno.test({
    name: `${backend}: two instances purging at once delete and audit each expired document once`,
    ...DB_TEST,
    ignore: testBackend() !== 'postgres',
    fn: async () => {
      // A second instance: its own connection pool on the same database.
      const other = connectPostgres(t.db.url!, { max: 3 });
      try {
        const titles = ['Race one', 'Race two', 'Race three'];
        for (const title of titles) {
          await upload(t, attorney, { file: await makePdf({ title }), recipient: '100001', title });
        }
        await t.deps
          .sql`update documents set uploaded_at = now() - interval '400 days' where title = any(${titles})`;
        const [a, b] = await Promise.all([
          purgeExpiredDocuments(t.deps, { exclusive: true }),
          purgeExpiredDocuments({ sql: other.sql, blobs: t.deps.blobs }, { exclusive: true }),
        ]);
        assert.equal(a.documents + b.documents, 3, JSON.stringify([a, b]));
        const [{ n }] = await t.deps.sql<{ n: number }[]>`
          select count(*)::int as n from audit_logs where event_type = 'document_deleted' and event_data->>'title' = any(${titles})`;
        assert.equal(n, 3, 'one audit event per document');

        // While another instance holds the lock, a purge skips its round.
        const held = await other.sql.reserve();
        await held`select pg_advisory_lock(${LOCK_KEYS.retentionPurge})`;
        assert.deepEqual(await purgeExpiredDocuments(t.deps, { exclusive: true }), {
          documents: 0,
          blobs: 0,
          skipped: true,
        });
        await held`select pg_advisory_unlock(${LOCK_KEYS.retentionPurge})`;
        held.release();
        assert.equal((await purgeExpiredDocuments(t.deps, { exclusive: true })).skipped, undefined);
      } finally {
        await other.close();
      }
    },
  });

  Deno.test({
    name: `${backend}: one instant parts kept from expired: listed, counted, readable and purged alike`,
    ...DB_TEST,
    fn: async () => {
      const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
      const uploaded = async (title: string) =>
        (await upload(t, attorney, { file: await makePdf({ title }), recipient: '100001', title })).body
          .document;
      const kept = await uploaded('Edge kept');
      const gone = await uploaded('Edge gone');
      // A minute either side of the delete date: 90 days of 24 hours after the upload.
      await t.deps.sql`update documents set uploaded_at = now() - interval '2160 hours' + interval '1 minute'
                       where id = ${kept.documentid}`;
      await t.deps.sql`update documents set uploaded_at = now() - interval '2160 hours' - interval '1 minute'
                       where id = ${gone.documentid}`;
      const edge = (rows: { name: string }[]) =>
        rows.map((row) => row.name).filter((name) => name.startsWith('Edge'));

      const own = await (await t.app.request('/api/documents/offender/100001', as(offender))).json();
      assert.deepEqual(edge(own.documents), ['Edge kept']);
      const page = await (await t.app.request('/api/documents/attorney?q=Edge&pageSize=10', as(attorney)))
        .json();
      assert.deepEqual(
        [page.total, edge(page.documents)],
        [1, ['Edge kept']],
        'the count agrees with the rows',
      );
      const [row] = own.documents.filter((d: { name: string }) => d.name === 'Edge kept');
      assert.ok(new Date(row.deletedate).getTime() > Date.now(), 'its delete date is still ahead');
      const view = (id: string) => t.app.request(`/api/documents/view/${id}`, as(offender));
      const read = await view(kept.documentid);
      await read.body?.cancel();
      assert.equal(read.status, 200);
      assert.equal((await view(gone.documentid)).status, 404);

      await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
      const left = await t.deps.sql<{ id: string }[]>`
        select id from documents where id in (${kept.documentid}, ${gone.documentid}) and deleted_at is null`;
      assert.deepEqual(
        left.map((r) => r.id),
        [kept.documentid],
        'the purge takes exactly what no list shows as live',
      );
      await t.deps.sql`delete from documents where id = ${kept.documentid}`;
      await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
    },
  });

  Deno.test({
    name: `${backend}: teardown`,
    ...DB_TEST,
    fn: async () => {
      await t.close();
    },
  });
}
