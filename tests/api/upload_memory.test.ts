/**
 * Forty uploads stalled just before their last bytes do not hold forty bodies in the API's memory: the real server
 * (a child process on PostgreSQL, so its resident memory is the API's alone) spools each file part to disk as it
 * arrives. Finished, such an upload is stored; abandoned, its temporary file is removed. Needs TEST_DATABASE_URL
 * (runs in the PostgreSQL pass).
 */
import assert from 'node:assert/strict';
import { apiToken } from '../support/api_client.ts';
import { DB_TEST } from '../support/app.ts';
import { createTestDatabase, testBackend, type TestDatabase } from '../support/db.ts';
import { makePdf } from '../support/pdfs.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const STALLED = 40;
const FILE_BYTES = 9 * 1024 * 1024;
/**
 * How much the API's resident memory may grow while it holds the stalled uploads. Held in memory, the forty bodies
 * alone are 360 MB (the API grew by about 440 MB so); spooled, what is held per upload is a chunk or two.
 */
const RSS_GROWTH_BOUND_MB = 120;

const OPTIONS = { ...DB_TEST, ignore: testBackend() !== 'postgres' };
let db: TestDatabase;
let server: TestServer;
const tokens: string[] = [];

function residentMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]) / 1024;
}

/** Bytes in the server's upload spool (0 when it has none). */
function spooledBytes(): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  try {
    for (const entry of Deno.readDirSync(`${server.dataDir}/upload-spool`)) {
      files++;
      bytes += Deno.statSync(`${server.dataDir}/upload-spool/${entry.name}`).size;
    }
  } catch { /* no spool yet */ }
  return { files, bytes };
}

/** An upload sent over a socket up to its last `held` bytes; `finish` sends them and reads the answer. */
async function stalledUpload(token: string, path: string, pdf: Uint8Array, title: string) {
  const boundary = `stall${crypto.randomUUID().slice(0, 8)}`;
  const enc = new TextEncoder();
  const body = new Uint8Array([
    ...enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="recipient_doc_number"\r\n\r\n100001\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n`,
    ),
    ...pdf,
    ...enc.encode(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL(server.url);
  const conn = await Deno.connect({ hostname: '127.0.0.1', port: Number(url.port) });
  const head = `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n` +
    `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${body.length}\r\n\r\n`;
  const writer = conn.writable.getWriter();
  await writer.write(enc.encode(head));
  const held = 64;
  await writer.write(body.subarray(0, body.length - held));
  return {
    async finish(): Promise<number> {
      await writer.write(body.subarray(body.length - held));
      const answer = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
      return Number(answer.split(' ')[1]);
    },
    abandon() {
      try {
        conn.close();
      } catch { /* closed */ }
    },
  };
}

Deno.test({
  name: 'setup: the real server on PostgreSQL',
  ...OPTIONS,
  fn: async () => {
    db = await createTestDatabase({ migrate: false });
    server = await startTestServer({
      DATABASE_URL: db.url!,
      DEMO_SEED: '1',
      UPLOADS_PER_SENDER: '20',
      UPLOADS_IN_FLIGHT: String(STALLED),
      // Long enough that no stalled upload is dropped while the memory is read.
      UPLOAD_IDLE_SECONDS: '600',
    });
    tokens.push(
      await apiToken(server, { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' }),
      await apiToken(server, { username: 'representative@demo.test', password: 'Demo-Rep-2026!' }),
    );
  },
});

Deno.test({
  name:
    `${STALLED} uploads stalled before their last bytes keep the API's memory bounded; finished ones are ` +
    'stored, abandoned ones leave no temporary file',
  ...OPTIONS,
  fn: async () => {
    const pdf = await makePdf({ pages: 1, padTo: FILE_BYTES });
    const baseline = residentMb(server.pid);
    const uploads = [];
    for (let i = 0; i < STALLED; i++) {
      // Twenty each from the attorney and the representative: the most one sender may have under way.
      const path = i % 2 ? '/api/representative/upload' : '/api/documents/upload';
      uploads.push(await stalledUpload(tokens[i % 2], path, pdf, `Stalled ${i}`));
    }
    // Until the server has read what was sent (the spool holds nearly all of it), or its memory already shows the
    // bodies held: a generous wait, not a measure of speed.
    let peak = baseline;
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      peak = Math.max(peak, residentMb(server.pid));
      if (peak - baseline > RSS_GROWTH_BOUND_MB) break;
      if (spooledBytes().bytes >= STALLED * (pdf.length - 128)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1000));
    peak = Math.max(peak, residentMb(server.pid));
    const spool = spooledBytes();
    console.log(
      `RSS ${baseline.toFixed(0)} MB before, ${peak.toFixed(0)} MB with ${STALLED} stalled ` +
        `${(pdf.length / 1048576).toFixed(1)} MB uploads; spool ${spool.files} files, ` +
        `${(spool.bytes / 1048576).toFixed(0)} MB`,
    );
    assert.ok(
      peak - baseline <= RSS_GROWTH_BOUND_MB,
      `the API grew by ${(peak - baseline).toFixed(0)} MB holding stalled uploads`,
    );
    assert.equal(spool.files, STALLED, 'each stalled upload is a file on disk');

    // One per sender finished: stored. The rest abandoned: their temporary files go.
    assert.equal(await uploads[0].finish(), 201);
    assert.equal(await uploads[1].finish(), 201);
    for (const upload of uploads.slice(2)) upload.abandon();
    const emptied = Date.now() + 60_000;
    while (spooledBytes().files > 0 && Date.now() < emptied) await new Promise((r) => setTimeout(r, 200));
    assert.equal(spooledBytes().files, 0, 'no temporary file is left behind');
  },
});

Deno.test({
  name: 'teardown',
  ...OPTIONS,
  fn: async () => {
    await server?.stop();
    await db?.drop();
  },
});
