/**
 * The streaming multipart reader: it reads what `fetch` and browsers send, whatever the chunking, and refuses
 * what is not a well-formed form.
 */
import assert from 'node:assert/strict';
import { multipartBoundary, MultipartError, readMultipart } from '../../api/http/multipart.ts';

/** The body and boundary `fetch` makes of a FormData. */
async function encoded(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const boundary = multipartBoundary(request.headers.get('content-type'))!;
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary };
}

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += size));
    },
  });
}

/** Every part as name, file name and bytes. */
async function parse(body: ReadableStream<Uint8Array>, boundary: string) {
  const parts: Array<{ name: string; filename?: string; bytes: number[] }> = [];
  await readMultipart(body, boundary, {
    maxHeaderBytes: 4096,
    maxParts: 50,
    onPart(info) {
      const part = { ...info, bytes: [] as number[] };
      parts.push(part);
      return { write: (chunk) => void part.bytes.push(...chunk) };
    },
  });
  return parts.map((p) => ({ ...p, text: new TextDecoder().decode(new Uint8Array(p.bytes)) }));
}

Deno.test('reads the form fetch sends, split at every chunk size, file bytes exact', async () => {
  const file = new Uint8Array(3000).map((_, i) => (i * 7) % 256);
  // The delimiter's own bytes inside the file must not end it early.
  file.set(new TextEncoder().encode('\r\n--not-the-boundary\r\n'), 100);
  const form = new FormData();
  form.append('recipient_doc_number', '100001');
  form.append('recipient_doc_number', '100002');
  form.set('title', 'Café "notice"\r\nline two');
  form.set('description', '');
  form.set('file', new File([file], 'a "b".pdf'));
  const { bytes, boundary } = await encoded(form);
  for (const size of [1, 2, 3, 7, 64, 1000, bytes.length]) {
    const parts = await parse(chunked(bytes, size), boundary);
    assert.deepEqual(parts.map((p) => [p.name, p.filename]), [
      ['recipient_doc_number', undefined],
      ['recipient_doc_number', undefined],
      ['title', undefined],
      ['description', undefined],
      ['file', 'a "b".pdf'],
    ]);
    assert.equal(parts[1].text, '100002');
    assert.equal(parts[2].text, 'Café "notice"\r\nline two');
    assert.equal(parts[3].text, '');
    assert.deepEqual(new Uint8Array(parts[4].bytes), file, `chunks of ${size}`);
  }
});

Deno.test('refuses a body that is not a well-formed form', async () => {
  const b = 'XyZ';
  const cases: Record<string, string> = {
    'a preamble': `junk\r\n--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${b}--\r\n`,
    'no closing delimiter': `--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1`,
    'a part without a name': `--${b}\r\nContent-Disposition: form-data\r\n\r\n1\r\n--${b}--\r\n`,
    'a part without Content-Disposition': `--${b}\r\nContent-Type: text/plain\r\n\r\n1\r\n--${b}--\r\n`,
    'a part that is not form-data':
      `--${b}\r\nContent-Disposition: attachment; name="a"\r\n\r\n1\r\n--${b}--\r\n`,
    'headers that never end': `--${b}\r\nContent-Disposition: form-data; name="a"\r\n${
      'X-A: b\r\n'.repeat(1000)
    }`,
    'junk after a delimiter': `--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${b}junk`,
    'too many parts': `--${b}\r\n${
      'Content-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ\r\n'.repeat(60)
    }`,
  };
  for (const [what, body] of Object.entries(cases)) {
    await assert.rejects(
      parse(chunked(new TextEncoder().encode(body), 5), b),
      MultipartError,
      what,
    );
  }
});

Deno.test('the boundary is read from the content type, quoted or not, and only for multipart/form-data', () => {
  assert.equal(multipartBoundary('multipart/form-data; boundary=abc'), 'abc');
  assert.equal(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"'), 'a b:c');
  assert.equal(multipartBoundary('multipart/mixed; boundary=abc'), undefined);
  assert.equal(multipartBoundary('application/x-www-form-urlencoded'), undefined);
  assert.equal(multipartBoundary('multipart/form-data'), undefined);
  assert.equal(multipartBoundary(null), undefined);
});
