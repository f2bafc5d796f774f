import '../i18n/testing.ts';
import assert from 'node:assert/strict';
import {
  docNumbers,
  EMPTY_UPLOAD_FORM,
  fileProblem,
  type RecipientCheck,
  recipientsConfirmed,
  uploadBody,
  uploadHint,
  uploadReady,
} from './uploadForm.ts';

const pdf = new File([new Uint8Array(10)], 'brief.pdf', { type: 'application/pdf' });

Deno.test('Upload is ready only with DOC number, title and file', () => {
  assert.equal(uploadReady(EMPTY_UPLOAD_FORM), false);
  assert.equal(
    uploadReady({ ...EMPTY_UPLOAD_FORM, recipientDocNumber: '100001', documentTitle: 'Brief' }),
    false,
  );
  assert.equal(
    uploadReady({ ...EMPTY_UPLOAD_FORM, recipientDocNumber: ' ', documentTitle: 'B', selectedFile: pdf }),
    false,
  );
  assert.equal(
    uploadReady({
      ...EMPTY_UPLOAD_FORM,
      recipientDocNumber: '100001',
      documentTitle: 'B',
      selectedFile: pdf,
    }),
    true,
  );
});

Deno.test('the file is refused before sending when not a PDF or over the configured limit', () => {
  assert.equal(uploadHint(10), 'PDF files only, max 10MB');
  assert.equal(fileProblem({ name: 'a.PDF', size: 10, type: '' }, 10), null);
  assert.equal(
    fileProblem({ name: 'a.docx', size: 10, type: 'application/msword' }, 10),
    'The file is not a PDF.',
  );
  assert.equal(fileProblem({ name: 'a.pdf', size: 10 * 1024 * 1024, type: 'application/pdf' }, 10), null);
  assert.equal(
    fileProblem({ name: 'a.pdf', size: 10 * 1024 * 1024 + 1, type: 'application/pdf' }, 10),
    'The file is larger than the 10 MB limit.',
  );
});

Deno.test('the multipart body carries the API field names; description only when given', () => {
  const body = uploadBody({
    recipientDocNumber: ' 100001 ',
    documentTitle: ' Brief ',
    description: '',
    selectedFile: pdf,
  });
  assert.equal(body.get('recipient_doc_number'), '100001');
  assert.equal(body.get('title'), 'Brief');
  assert.equal(body.has('description'), false);
  assert.equal((body.get('file') as File).name, 'brief.pdf');
  const described = uploadBody({
    recipientDocNumber: '1',
    documentTitle: 'T',
    description: 'Note',
    selectedFile: pdf,
  });
  assert.equal(described.get('description'), 'Note');
});

Deno.test('several DOC numbers: commas, spaces or lines, each once, in order', () => {
  assert.deepEqual(docNumbers(' 100001, 100002\n100003;100001  '), ['100001', '100002', '100003']);
  assert.deepEqual(docNumbers(' \n '), []);
});

Deno.test('Upload waits until every recipient is confirmed, and at most 20', () => {
  const found = { kind: 'found', displayName: 'DOE, J.' } as const;
  const checks = new Map<string, RecipientCheck>([['1', found], ['2', { kind: 'checking' }]]);
  assert.equal(recipientsConfirmed('1', checks), true);
  assert.equal(recipientsConfirmed('1, 2', checks), false, 'one still being checked');
  checks.set('3', { kind: 'missing', message: 'No one with this DOC number receives mail here' });
  assert.equal(recipientsConfirmed('1 3', checks), false, 'one unknown');
  assert.equal(recipientsConfirmed('', checks), false);
  const many = Array.from({ length: 21 }, (_, i) => String(i + 10));
  const all = new Map<string, RecipientCheck>(many.map((n) => [n, found]));
  assert.equal(recipientsConfirmed(many.slice(0, 20).join(','), all), true);
  assert.equal(recipientsConfirmed(many.join(','), all), false);
});

Deno.test('the body repeats recipient_doc_number per recipient and marks time-sensitive mail', () => {
  const body = uploadBody({
    ...EMPTY_UPLOAD_FORM,
    recipientDocNumber: '100001\n100002',
    documentTitle: 'Class notice',
    selectedFile: pdf,
    timeSensitive: true,
    respondBy: '2026-12-03',
  });
  assert.deepEqual(body.getAll('recipient_doc_number'), ['100001', '100002']);
  assert.equal(body.get('time_sensitive'), 'true');
  assert.equal(body.get('respond_by'), '2026-12-03');
  const plain = uploadBody({
    ...EMPTY_UPLOAD_FORM,
    recipientDocNumber: '1',
    documentTitle: 'T',
    selectedFile: pdf,
  });
  assert.equal(plain.has('time_sensitive'), false);
  assert.equal(plain.has('respond_by'), false);
});
