/**
 * Signed delivery receipts: the sender downloads one; it verifies offline (as docs/operations.md runs
 * `npm run receipt:verify`) and through the portal's check (POST /api/receipts/verify), says which events the
 * checkpoint covers, and fails with any one byte changed.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, TEST_AUDIT_SEED, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';
import { docCommands } from '../support/doc_commands.ts';
import { ROOT } from '../support/instance.ts';
import { canonicalJson, checkReceipt } from '../../api/domain/receipts.ts';
import { keyFingerprint, signerFromSeed } from '../../api/domain/audit_signing.ts';
import { RECEIPT_FILE_MAX_CHARS } from '../../contract/shapes/receipt.ts';
import { writeAuditCheckpoint } from '../../api/domain/audit_checkpoints.ts';
import { FileCheckpointStore } from '../../api/blobs/audit_checkpoint_store.ts';

let t: TestApp;
let attorney: string;
let documentId: string;
let receipt: string;
let dir: string;
const signer = await signerFromSeed(TEST_AUDIT_SEED, 'tests');

async function get(path: string, token: string) {
  const r = await t.app.request(path, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

Deno.test({
  name: 'setup: a letter sent, shown to its recipient, and a checkpoint',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    dir = await Deno.makeTempDir({ prefix: 'lmp-receipt-' });
    attorney = await signIn(t, ...DEMO.attorney);
    const offender = await signIn(t, ...DEMO.offender);
    const sent = await upload(t, attorney, {
      file: await makePdf({ pages: 2 }),
      recipient: '100001',
      title: 'Plea',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    documentId = sent.body.document.documentid;
    const viewed = await t.app.request(`/api/documents/view/${documentId}`, {
      headers: { authorization: `Bearer ${offender}` },
    });
    await viewed.body?.cancel();
    const shown = await t.app.request(`/api/documents/shown/${documentId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${offender}` },
    });
    assert.ok(shown.ok, await shown.text());
    await writeAuditCheckpoint({
      sql: t.deps.sql,
      signer,
      store: new FileCheckpointStore(`${dir}/audit-checkpoints.jsonl`),
    });
  },
});

Deno.test({
  name: 'the sender downloads a signed receipt that verifies and names the events the checkpoint covers',
  ...DB_TEST,
  fn: async () => {
    const r = await get(`/api/documents/${documentId}/receipt`, attorney);
    assert.equal(r.status, 200, r.text);
    assert.match(
      r.headers.get('content-disposition')!,
      new RegExp(`attachment; filename="receipt-${documentId}.json"`),
    );
    receipt = r.text;
    const checked = await checkReceipt(receipt, signer.publicKey);
    assert.ok(checked.ok, checked.ok ? '' : checked.reason);
    const text = checked.lines.join('\n');
    assert.match(text, /SHA-256 [0-9a-f]{64}, 2 page\(s\)/);
    assert.match(text, /document_uploaded .*: covered by the checkpoint/);
    assert.match(text, /document_viewed .*: covered by the checkpoint/);
    assert.match(text, /document_shown .*: covered by the checkpoint/);
  },
});

Deno.test({
  name: 'a receipt with any one byte changed does not verify',
  ...DB_TEST,
  fn: async () => {
    const bytes = new TextEncoder().encode(receipt);
    // Every 7th byte, and the first and last: values, keys, punctuation, the signature and the final newline.
    const positions = [
      0,
      bytes.length - 1,
      ...Array.from({ length: Math.floor(bytes.length / 7) }, (_, i) => i * 7),
    ];
    for (const at of positions) {
      const changed = bytes.slice();
      changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
      const result = await checkReceipt(new TextDecoder().decode(changed), signer.publicKey);
      assert.equal(result.ok, false, `byte ${at} changed and the receipt still verified`);
    }
    // Another key's receipt is refused when the portal's key is given.
    const other = await signerFromSeed('d4'.repeat(32), 'other');
    const foreign = await checkReceipt(receipt, other.publicKey);
    assert.equal(foreign.ok, false);
  },
});

Deno.test({
  name:
    "the portal's check: the sender's receipt verifies against the portal's key and names the covered events",
  ...DB_TEST,
  fn: async () => {
    for (const role of ['attorney', 'admin'] as const) {
      const token = role === 'attorney' ? attorney : await signIn(t, ...DEMO.admin);
      const r = await call(t, 'POST', '/api/receipts/verify', { token, body: { content: receipt } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const data = r.body.data;
      assert.equal(data.valid, true, JSON.stringify(data));
      assert.equal(data.document.documentid, documentId);
      assert.equal(data.document.pages, 2);
      assert.equal(data.keyFingerprint, await keyFingerprint(signer.publicKey));
      assert.equal(data.checkpoint.holds, true);
      const events = Object.fromEntries(data.events.map((e: { event: string }) => [e.event, e]));
      for (const event of ['document_uploaded', 'document_viewed', 'document_shown']) {
        assert.equal(events[event]?.covered, true, `${event}: ${JSON.stringify(data.events)}`);
      }
    }
  },
});

Deno.test({
  name:
    "the portal's check: a receipt with one byte changed, or another key's, does not verify (valid: false)",
  ...DB_TEST,
  fn: async () => {
    const check = async (content: string) => {
      const r = await call(t, 'POST', '/api/receipts/verify', { token: attorney, body: { content } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.data.valid, false, content.slice(0, 80));
      assert.equal(typeof r.body.data.reason, 'string');
      return r.body.data.reasonCode;
    };
    assert.equal(await check(receipt.replace(/"pages":2/, '"pages":3')), 'bad_signature');
    assert.equal(await check(receipt.replace(/^\{/, '[')), 'not_json');
    assert.equal(await check(receipt.replace(/\n$/, ' \n')), 'changed');
    assert.equal(await check('garbage'), 'not_json');
    assert.equal(await check('{"receipt":1}'), 'not_a_receipt');
    const deep = '['.repeat(15_000) + ']'.repeat(15_000);
    const nested = await check(
      `{"publicKey":"a","receipt":{"document":${deep},"events":[]},"signature":"b"}`,
    );
    assert.ok(['not_a_receipt', 'changed', 'not_json'].includes(nested), nested);
    // Signed by a key of its own: refused for not being the portal's, whatever that key is (base64 or not).
    const other = await signerFromSeed('d4'.repeat(32), 'other');
    const parsed = JSON.parse(receipt);
    for (const publicKey of [other.publicKey, '%%% not base64 %%%']) {
      assert.equal(await check(canonicalJson({ ...parsed, publicKey }) + '\n'), 'other_key');
    }
  },
});

Deno.test({
  name: "the portal's check: a body that is not { content } within the cap is a 400 failure, never a 500",
  ...DB_TEST,
  fn: async () => {
    const bodies: { rawBody?: Uint8Array | string; body?: unknown }[] = [
      { rawBody: crypto.getRandomValues(new Uint8Array(512)) },
      { rawBody: '{"content": ' },
      { body: {} },
      { body: { content: 42 } },
      { body: ['content'] },
      { body: { content: 'x'.repeat(RECEIPT_FILE_MAX_CHARS + 1) } },
      { body: { content: 'nul \u0000 inside' } },
    ];
    for (const options of bodies) {
      const r = await call(t, 'POST', '/api/receipts/verify', {
        token: attorney,
        headers: { 'content-type': 'application/json' },
        ...options,
      });
      assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 200));
      assert.equal(r.body.success, false);
      assert.equal(typeof r.body.message, 'string');
      assert.equal(typeof r.body.code, 'string');
    }
    // Past the API's cap on any JSON body: refused as it streams in (413), in the same failure shape.
    const huge = await call(t, 'POST', '/api/receipts/verify', {
      token: attorney,
      body: { content: 'x'.repeat(100 * 1024) },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.success, false);
    // The offender's tablet holds no receipt and may not ask.
    const offender = await signIn(t, ...DEMO.offender);
    const refused = await call(t, 'POST', '/api/receipts/verify', {
      token: offender,
      body: { content: receipt },
    });
    assert.equal(refused.status, 403);
  },
});

Deno.test({
  name:
    'only senders download receipts: the recipient is refused (403), another attorney finds nothing (404)',
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    assert.equal((await get(`/api/documents/${documentId}/receipt`, offender)).status, 403);
    const { makeUser } = await import('../support/factories.ts');
    const stranger = await makeUser(t, { role: 'attorney' });
    const token = await signIn(t, stranger.username, stranger.secret);
    assert.equal((await get(`/api/documents/${documentId}/receipt`, token)).status, 404);
  },
});

Deno.test({
  name: 'npm run receipt:verify as documented: 0 for the receipt, 1 with one byte changed',
  ...DB_TEST,
  fn: async () => {
    const [[command]] = await docCommands('docs/operations.md', '### Checking a delivery receipt');
    assert.match(command, /^npm run receipt:verify receipt-/);
    const file = `${dir}/receipt.json`;
    const runIt = async () => {
      const out = await new Deno.Command('sh', {
        args: ['-ec', command.replace(/receipt-\S+\.json/, file)],
        cwd: ROOT,
        stdout: 'piped',
        stderr: 'piped',
      }).output();
      return {
        code: out.code,
        text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
      };
    };
    await Deno.writeTextFile(file, receipt);
    const good = await runIt();
    assert.equal(good.code, 0, good.text);
    assert.match(good.text, /ok: the receipt holds/);
    await Deno.writeTextFile(file, receipt.replace(/"pages":2/, '"pages":3'));
    const bad = await runIt();
    assert.equal(bad.code, 1, bad.text);
    assert.match(bad.text, /FAIL: the signature does not match the receipt/);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  },
});
