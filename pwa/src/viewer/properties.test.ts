import '../i18n/testing.ts';
import assert from 'node:assert/strict';
import { documentProperties, EMPTY_VALUE, formatDateTime, formatFileSize } from './properties.ts';

function value(rows: { label: string; value: string }[], label: string): string | undefined {
  return rows.find((row) => row.label === label)?.value;
}

Deno.test('every field of the spec is listed, in order', () => {
  const rows = documentProperties({
    info: {
      Title: 'Case notes',
      Author: 'A. Lawyer',
      Subject: 'Appeal',
      Keywords: 'appeal, brief',
      Creator: 'Word',
      Producer: 'pdf-lib',
      PDFFormatVersion: '1.7',
    },
    creationDate: new Date(2025, 0, 5, 15, 4),
    modDate: null,
    pageCount: 3,
    file: { file_name: 'notes.pdf', size: 12345 },
  });
  assert.deepEqual(rows.map((row) => row.label), [
    'File name',
    'File size',
    'Title',
    'Author',
    'Subject',
    'Keywords',
    'Creator',
    'Creation date',
    'Modification date',
    'PDF producer',
    'PDF version',
    'Page count',
  ]);
  assert.equal(value(rows, 'File name'), 'notes.pdf');
  assert.equal(value(rows, 'File size'), '12.1 KB (12,345 bytes)');
  assert.equal(value(rows, 'Title'), 'Case notes');
  assert.equal(value(rows, 'Creation date'), 'Jan 5, 2025, 3:04 PM');
  assert.equal(value(rows, 'Modification date'), EMPTY_VALUE);
  assert.equal(value(rows, 'PDF version'), '1.7');
  assert.equal(value(rows, 'Page count'), '3');
});

Deno.test('missing fields show a dash, and the XMP title wins', () => {
  const rows = documentProperties({
    info: { Title: 'Info title', Author: '  ', Keywords: 42 },
    xmpTitle: 'XMP title',
    creationDate: null,
    modDate: new Date('invalid'),
    pageCount: 1,
    file: null,
  });
  assert.equal(value(rows, 'Title'), 'XMP title');
  assert.equal(value(rows, 'Author'), EMPTY_VALUE);
  assert.equal(value(rows, 'Keywords'), EMPTY_VALUE);
  assert.equal(value(rows, 'File name'), EMPTY_VALUE);
  assert.equal(value(rows, 'File size'), EMPTY_VALUE);
  assert.equal(value(rows, 'Modification date'), EMPTY_VALUE);
});

Deno.test('file sizes in bytes, KB and MB', () => {
  assert.equal(formatFileSize(512), '512 bytes');
  assert.equal(formatFileSize(2048), '2 KB (2,048 bytes)');
  assert.equal(formatFileSize(10 * 1024 * 1024), '10 MB (10,485,760 bytes)');
  assert.equal(formatFileSize(null), EMPTY_VALUE);
  assert.equal(formatFileSize(-1), EMPTY_VALUE);
});

Deno.test('dates with time of day', () => {
  assert.equal(formatDateTime(new Date(2025, 6, 4, 9, 30)), 'Jul 4, 2025, 9:30 AM');
  assert.equal(formatDateTime(null), EMPTY_VALUE);
});
