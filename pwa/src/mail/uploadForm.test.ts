import assert from 'node:assert/strict';
import { EMPTY_UPLOAD_FORM, fileProblem, uploadBody, uploadHint, uploadReady } from './uploadForm.ts';

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
