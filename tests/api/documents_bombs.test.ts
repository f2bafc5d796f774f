/**
 * PDF bombs against the real server (a child process, so its memory is the API's alone): a small file
 * holding one huge compressed image and a decompression bomb are refused with a clear message, the API's
 * resident memory stays flat, and a sign-in sent meanwhile is answered (its time is printed, not judged: tests
 * do not time things on a shared machine).
 */
import assert from 'node:assert/strict';
import { apiToken } from '../support/api_client.ts';
import { DB_TEST } from '../support/app.ts';
import { decompressionBombPdf, imageBombPdf } from '../support/pdfs.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** How much the API's resident memory may grow while it refuses the bombs. */
const RSS_GROWTH_BOUND_MB = 100;

let server: TestServer;
let attorney: string;

function residentMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]) / 1024;
}

async function uploadBomb(file: Uint8Array): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.set('recipient_doc_number', '100001');
  form.set('title', 'Bomb');
  form.set('file', new File([file as BlobPart], 'bomb.pdf', { type: 'application/pdf' }));
  const response = await fetch(`${server.url}/api/documents/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${attorney}` },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

/** Uploads `file` while a sign-in is sent 100 ms later; returns the upload's answer and the sign-in's time. */
async function uploadWhileSigningIn(file: Uint8Array) {
  const signIn = (async () => {
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const token = await apiToken(server, { username: '100002', password: '135790' });
    assert.ok(token, 'the sign-in sent during the inspection is answered with a session');
    return performance.now() - started;
  })();
  const [result, signInMs] = await Promise.all([uploadBomb(file), signIn]);
  return { result, signInMs };
}

Deno.test({
  name: 'setup: the real server',
  ...DB_TEST,
  fn: async () => {
    server = await startTestServer();
    attorney = await apiToken(server, { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' });
  },
});

Deno.test({
  name:
    'an image bomb and a decompression bomb are refused with a clear message; memory flat; sign-in answers',
  ...DB_TEST,
  fn: async () => {
    const bombs = { image: await imageBombPdf(), decompression: await decompressionBombPdf() };
    const baseline = residentMb(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => peak = Math.max(peak, residentMb(server.pid)), 25);
    try {
      for (const [kind, file] of Object.entries(bombs)) {
        const { result, signInMs } = await uploadWhileSigningIn(file);
        console.log(
          `${kind} bomb (${(file.length / 1024).toFixed(0)} KiB): ${result.status} ` +
            `'${result.body.message}', sign-in meanwhile ${signInMs.toFixed(0)} ms`,
        );
        assert.equal(result.status, 422, JSON.stringify(result.body));
        assert.equal(result.body.message, 'The PDF is too complex to process safely.');
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `API resident memory: ${baseline.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the peak ` +
        `(bound: +${RSS_GROWTH_BOUND_MB} MB)`,
    );
    assert.ok(peak - baseline < RSS_GROWTH_BOUND_MB, `grew by ${(peak - baseline).toFixed(0)} MB`);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await server.stop();
  },
});
