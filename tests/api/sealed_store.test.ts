/**
 * Documents' bytes sealed at rest, on every backend (fs, postgres, s3 on the run's Ceph gateway): after an upload no
 * file of the store's folder, no row of the database and no object of the bucket holds any 48 bytes of the PDF;
 * it reads back exactly, whole and in ranges across segment boundaries; a stored blob with one byte changed or two
 * segments swapped fails the read with an error and a log line, never other bytes; blob names say nothing of the
 * content (the same letter twice: two unrelated names).
 */
import assert from 'node:assert/strict';
import { CHUNK_SIZE } from '../../api/blobs/pg_store.ts';
import type { SealedBlobStore } from '../../api/blobs/sealed_store.ts';
import { SEALED_SEGMENT_SIZE, SEGMENT_SIZE } from '../../api/blobs/stream_seal.ts';
import { find_sealed_blob } from '../../api/db/sealed_blobs.ts';
import { createTestApp, DB_TEST as DB_TEST_OPTIONS, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';
import { filesUnder, sharedRun } from '../support/plaintext.ts';
import { createTestBucket, HAVE_S3, listKeys, type TestBucket } from '../support/s3.ts';

/** Every value of every row of every table, as bytes (bytea as it is, the rest as its text). */
async function databaseBytes(t: TestApp): Promise<Uint8Array[]> {
  const tables = await t.deps.sql<{ tablename: string }[]>`
    select tablename from pg_tables where schemaname = 'public'`;
  const out: Uint8Array[] = [];
  for (const { tablename } of tables) {
    const rows = await t.deps.sql.unsafe(`select * from "${tablename}"`);
    for (const row of rows) {
      for (const value of Object.values(row)) {
        if (value instanceof Uint8Array) out.push(value);
        else if (value !== null) out.push(new TextEncoder().encode(JSON.stringify(value)));
      }
    }
  }
  return out;
}

async function get(t: TestApp, path: string, token: string, headers: Record<string, string> = {}) {
  const r = await t.app.request(path, { headers: { authorization: `Bearer ${token}`, ...headers } });
  try {
    return { status: r.status, bytes: new Uint8Array(await r.arrayBuffer()), broke: false };
  } catch {
    return { status: r.status, bytes: new Uint8Array(0), broke: true };
  }
}

for (const backend of ['fs', 'postgres', 's3'] as const) {
  let t: TestApp;
  let bucket: TestBucket | undefined;
  let attorney: string;
  let offender: string;
  let pdf: Uint8Array;
  let id: string;
  const DB_TEST = { ...DB_TEST_OPTIONS, ignore: backend === 's3' && !HAVE_S3 };

  /** The stored (sealed) bytes of the uploaded document, and a way to write other bytes in their place. */
  const storedBlob = async () => {
    const row = (await find_sealed_blob(t.deps.sql, await sha256Hex(pdf)))!;
    const inner = (t.deps.blobs as SealedBlobStore).inner;
    const bytes = new Uint8Array(await new Response(await inner.open(row.name)).arrayBuffer());
    const write = async (other: Uint8Array) => {
      if (backend === 'fs') {
        const path = `${t.blobDir}/blobs/${await inner.relativePath!(row.name)}`;
        await Deno.chmod(path, 0o600);
        await Deno.writeFile(path, other);
      } else if (backend === 'postgres') {
        await t.deps.sql`delete from blob_chunks where sha256 = ${row.name}`;
        for (let at = 0, seq = 0; at < other.length; at += CHUNK_SIZE, seq++) {
          await t.deps.sql`insert into blob_chunks (sha256, seq, data)
            values (${row.name}, ${seq}, ${other.subarray(at, at + CHUNK_SIZE)})`;
        }
      } else {
        await bucket!.client.putObject(`${bucket!.s3.prefix}blobs/${row.name}`, other);
      }
    };
    return { row, bytes, write };
  };

  Deno.test({
    name: `${backend}: setup`,
    ...DB_TEST,
    fn: async () => {
      if (backend === 's3') bucket = await createTestBucket();
      t = await createTestApp({ BLOB_STORE: backend, ...bucket?.env });
      [attorney, offender] = await Promise.all([signIn(t, ...DEMO.attorney), signIn(t, ...DEMO.offender)]);
      // Random filler makes any shared run a real leak; 5 segments and a part.
      pdf = await makePdf({ pages: 2, title: 'Sealed brief', padTo: 5 * SEGMENT_SIZE });
      const r = await upload(t, attorney, { file: pdf, recipient: '100001', title: 'Sealed brief' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      id = r.body.document.documentid;
    },
  });

  Deno.test({
    name: `${backend}: no stored file, row or object holds 48 bytes of the uploaded PDF in a row`,
    ...DB_TEST,
    fn: async () => {
      const places: { what: string; bytes: Uint8Array }[] = [];
      for (const path of await filesUnder(t.blobDir)) {
        places.push({ what: path, bytes: await Deno.readFile(path) });
      }
      for (const bytes of await databaseBytes(t)) places.push({ what: 'a database row', bytes });
      if (bucket) {
        for (const key of await listKeys(bucket.client)) {
          const r = await bucket.client.getObject(key);
          places.push({ what: `object ${key}`, bytes: new Uint8Array(await r!.arrayBuffer()) });
        }
      }
      assert.ok(places.length > 0);
      const stored = await storedBlob();
      // The sealed blob was among them (in the database, as 256 KiB chunks).
      const among = backend === 'postgres'
        ? places.filter((p) => p.bytes.length === CHUNK_SIZE).length > 0
        : places.some((p) => p.bytes.length === stored.bytes.length);
      assert.ok(among, 'the sealed blob was among the places looked at');
      for (const place of places.filter((p) => p.what !== 'a database row')) {
        assert.equal(sharedRun(pdf, place.bytes), undefined, `${place.what} holds plaintext`);
      }
      // The rows in one piece (a run found across two values would fail the test, never pass it).
      const rows = places.filter((p) => p.what === 'a database row').map((p) => p.bytes);
      const all = new Uint8Array(rows.reduce((n, b) => n + b.length, 0));
      rows.reduce((at, b) => (all.set(b, at), at + b.length), 0);
      assert.equal(sharedRun(pdf, all), undefined, 'a database row holds plaintext');
      // The check itself finds plaintext where there is some.
      assert.notEqual(sharedRun(pdf, pdf.subarray(1000, 1048)), undefined);
    },
  });

  Deno.test({
    name: `${backend}: the document reads back exactly, whole and in ranges across segment boundaries`,
    ...DB_TEST,
    fn: async () => {
      const whole = await get(t, `/api/documents/view/${id}`, offender);
      assert.equal(whole.status, 200);
      assert.deepEqual(whole.bytes, pdf);
      for (
        const [start, end] of [
          [0, 0],
          [SEGMENT_SIZE - 5, SEGMENT_SIZE + 5],
          [SEGMENT_SIZE - 1, 3 * SEGMENT_SIZE],
          [2 * SEGMENT_SIZE, 3 * SEGMENT_SIZE - 1],
          [pdf.length - 70_000, pdf.length - 1],
        ]
      ) {
        const part = await get(t, `/api/documents/view/${id}`, offender, { range: `bytes=${start}-${end}` });
        assert.equal(part.status, 206, `${start}-${end}`);
        assert.deepEqual(part.bytes, pdf.subarray(start, end + 1), `${start}-${end}`);
      }
    },
  });

  Deno.test({
    name: `${backend}: the same letter uploaded twice is stored under two unrelated names`,
    ...DB_TEST,
    fn: async () => {
      const first = await storedBlob();
      const r = await upload(t, attorney, { file: pdf, recipient: '100001', title: 'Sealed brief again' });
      assert.equal(r.status, 201);
      const second = await storedBlob();
      assert.notEqual(first.row.name, second.row.name);
      assert.notEqual(first.row.name, await sha256Hex(pdf));
      assert.notDeepEqual(first.bytes.subarray(0, 64), second.bytes.subarray(0, 64));
      const again = await get(t, `/api/documents/view/${id}`, offender);
      assert.deepEqual(again.bytes, pdf);
    },
  });

  Deno.test({
    name: `${backend}: a byte changed in a segment, or two segments swapped, fails the read with a log line`,
    ...DB_TEST,
    fn: async () => {
      const stored = await storedBlob();
      const logged: string[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
      try {
        // One byte of segment 2: a read of segment 2 fails; the bytes before it are never followed by others.
        const changed = stored.bytes.slice();
        changed[2 * SEALED_SEGMENT_SIZE + 17] ^= 0x40;
        await stored.write(changed);
        const range = `bytes=${2 * SEGMENT_SIZE}-${2 * SEGMENT_SIZE + 99}`;
        const r = await get(t, `/api/documents/view/${id}`, offender, { range });
        assert.equal(r.status, 503, 'the segment does not open: the read cannot start');
        const whole = await get(t, `/api/documents/view/${id}`, offender);
        assert.ok(whole.broke || whole.status !== 200, 'the whole read breaks off');
        assert.ok(whole.bytes.length <= 2 * SEGMENT_SIZE);
        assert.ok(logged.some((l) => /segment 2 does not authenticate/.test(l)), logged.join('\n'));
        // Segments 0 and 1 swapped (each intact on its own).
        logged.length = 0;
        const swapped = stored.bytes.slice();
        swapped.set(stored.bytes.subarray(SEALED_SEGMENT_SIZE, 2 * SEALED_SEGMENT_SIZE), 0);
        swapped.set(stored.bytes.subarray(0, SEALED_SEGMENT_SIZE), SEALED_SEGMENT_SIZE);
        await stored.write(swapped);
        const s = await get(t, `/api/documents/view/${id}`, offender);
        assert.equal(s.status, 503);
        assert.ok(logged.some((l) => /segment 0 does not authenticate/.test(l)), logged.join('\n'));
        await stored.write(stored.bytes);
        assert.deepEqual((await get(t, `/api/documents/view/${id}`, offender)).bytes, pdf);
      } finally {
        console.error = original;
      }
    },
  });

  Deno.test({
    name: `${backend}: teardown`,
    ...DB_TEST,
    fn: async () => {
      await t.close();
      await bucket?.drop();
    },
  });
}
