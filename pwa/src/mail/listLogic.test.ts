import assert from 'node:assert/strict';
import { inLanguage } from '../i18n/testing.ts';
import {
  DEFAULT_SORT,
  type DocumentRow,
  footerText,
  formatBytes,
  infoText,
  nextSort,
  pageButtons,
  pageCount,
  pageRows,
  parseSortValue,
  rangeText,
  readText,
  searchRows,
  sharedDays,
  sortChoices,
  sortKind,
  sortRows,
  sortValue,
  startFor,
  toDocumentRow,
} from './listLogic.ts';

const row = (fields: Record<string, unknown>): DocumentRow =>
  toDocumentRow({ documentid: 1, name: 'x', ...fields });

Deno.test('list answers map to one row shape (attorney_name over attorney, deletedate over eformDue)', () => {
  const offender = toDocumentRow({
    documentid: 7,
    name: 'Brief',
    attorney_name: 'Ann Law',
    attorney: 'ignored',
    date: '2025-01-05T10:00:00Z',
    pages: 3,
    deletedate: '2025-04-05',
    eformDue: 'ignored',
    approval_status: 'approved',
  });
  assert.equal(offender.documentid, '7');
  assert.equal(offender.attorney, 'Ann Law');
  assert.equal(offender.eformDue, '2025-04-05');
  assert.equal(offender.pages, 3);
  assert.equal(toDocumentRow({ attorney: 'Fallback', eformDue: '2025-02-01' }).attorney, 'Fallback');
  assert.equal(toDocumentRow({ eformDue: '2025-02-01' }).eformDue, '2025-02-01');
  assert.equal(toDocumentRow({ offenderDocNumber: '100001' }).offenderdocnumber, '100001');
  assert.equal(toDocumentRow({ pages: null }).pages, 0);
  // Mapping a mapped row again changes nothing (the offender list keeps mapped rows in memory).
  assert.deepEqual(toDocumentRow(offender), offender);
});

Deno.test('search finds the start of any word of the given fields, or the start of the page count', () => {
  const rows = [
    row({ documentid: 1, name: 'Appeal brief', attorney: 'Zed', pages: 12 }),
    row({ documentid: 2, name: 'Motion', attorney: 'Amy Apple', pages: 3 }),
    row({ documentid: 3, name: 'Letter', attorney: 'Bob', pages: 1 }),
    row({ documentid: 4, name: 'Trial exhibit-7 (draft)', attorney: "Riley O'Paralegal", pages: 21 }),
  ];
  const ids = (query: string) => searchRows(rows, query, ['name', 'attorney']).map((r) => r.documentid);
  assert.deepEqual(ids(''), ['1', '2', '3', '4']);
  assert.deepEqual(ids('AP'), ['1', '2'], "'Appeal' and 'Apple', a word of the sender's name");
  assert.deepEqual(ids('am'), ['2']);
  assert.deepEqual(ids('brief'), ['1'], 'a word inside the title');
  assert.deepEqual(ids('exhibit'), ['4']);
  assert.deepEqual(ids('7'), ['4'], 'after a hyphen');
  assert.deepEqual(ids('draft'), ['4'], 'after a parenthesis');
  assert.deepEqual(ids('paralegal'), ['4'], 'after an apostrophe');
  assert.deepEqual(ids('exhibit-7 (d'), ['4'], 'several words as typed');
  assert.deepEqual(ids('rief'), [], 'not inside a word');
  assert.deepEqual(ids('1'), ['1', '3'], 'the page count from its start only (21 is not found by 1)');
  assert.deepEqual(searchRows(rows, 'am', ['name']).length, 0);
});

Deno.test('a column cycles none, asc, desc, asc; another column starts at asc; default is name', () => {
  assert.deepEqual(DEFAULT_SORT, { key: 'name', order: 'asc' });
  let sort = nextSort(null, 'pages');
  assert.deepEqual(sort, { key: 'pages', order: 'asc' });
  sort = nextSort(sort, 'pages');
  assert.deepEqual(sort, { key: 'pages', order: 'desc' });
  sort = nextSort(sort, 'pages');
  assert.deepEqual(sort, { key: 'pages', order: 'asc' });
  assert.deepEqual(nextSort(sort, 'date'), { key: 'date', order: 'asc' });
});

Deno.test('sorting orders the whole list: numbers, dates and names in their own way', () => {
  const rows = [
    row({ documentid: 1, name: 'doc 10', pages: 10, date: '2025-03-01' }),
    row({ documentid: 2, name: 'Doc 9', pages: 9, date: '2025-01-01' }),
    row({ documentid: 3, name: 'alpha', pages: 100, date: '2025-02-01' }),
  ];
  const ids = (rows: DocumentRow[]) => rows.map((r) => r.documentid);
  assert.deepEqual(ids(sortRows(rows, { key: 'name', order: 'asc' })), ['3', '2', '1']);
  assert.deepEqual(ids(sortRows(rows, { key: 'pages', order: 'desc' })), ['3', '1', '2']);
  assert.deepEqual(ids(sortRows(rows, { key: 'date', order: 'asc' })), ['2', '3', '1']);
  assert.deepEqual(ids(sortRows(rows, null)), ['1', '2', '3']);
});

Deno.test('paging slices the rows, clamps the page, and the footer counts right on every page', () => {
  const rows = Array.from({ length: 35 }, (_, i) => i + 1);
  assert.equal(pageCount(35, 10), 4);
  assert.equal(pageCount(0, 10), 1);
  assert.deepEqual(pageRows(rows, 2, 10), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.deepEqual(pageRows(rows, 9, 10), [31, 32, 33, 34, 35]);
  assert.equal(footerText(1, 10, 35), 'Showing 1 to 10 of 35 entries');
  assert.equal(footerText(2, 10, 35), 'Showing 11 to 20 of 35 entries');
  assert.equal(footerText(4, 10, 35), 'Showing 31 to 35 of 35 entries');
  assert.equal(footerText(1, 25, 3), 'Showing 1 to 3 of 3 entries');
  assert.equal(footerText(1, 10, 0), 'Showing 0 to 0 of 0 entries');
});

Deno.test('page buttons list every page when few, else a window with gaps', () => {
  assert.deepEqual(pageButtons(1, 4), [1, 2, 3, 4]);
  assert.deepEqual(pageButtons(1, 20), [1, 2, 3, 4, 5, null, 20]);
  assert.deepEqual(pageButtons(10, 20), [1, null, 9, 10, 11, null, 20]);
  assert.deepEqual(pageButtons(20, 20), [1, null, 16, 17, 18, 19, 20]);
});

Deno.test('info text is the description, else name, upload date, status (or Unknown) and file ID', () => {
  assert.equal(infoText(row({ description: 'Read before the hearing' })), 'Read before the hearing');
  assert.equal(
    infoText(row({ documentid: 42, name: 'Brief', date: '2025-01-05' })),
    'Document: Brief\nUploaded: Jan 5, 2025\nStatus: Unknown\nFile ID: 42',
  );
});

Deno.test('read text and byte sizes', () => {
  assert.equal(readText(null), 'Not yet viewed');
  assert.equal(readText('2025-01-05'), 'Viewed Jan 5, 2025');
  assert.equal(formatBytes(512), '512 bytes');
  assert.equal(formatBytes(1536), '1.5 KB');
  assert.equal(formatBytes(10 * 1024 * 1024), '10.0 MB');
});

Deno.test("a server page's footer counts from its offset", () => {
  assert.equal(rangeText(10, 10, 35), 'Showing 11 to 20 of 35 entries');
  assert.equal(rangeText(30, 5, 35), 'Showing 31 to 35 of 35 entries');
  assert.equal(rangeText(0, 0, 0), 'Showing 0 to 0 of 0 entries');
});

Deno.test('Next and Previous go by cursor, other page numbers by number, page 1 from the start', () => {
  const shown = { page: 3, nextCursor: 'n', prevCursor: 'p' };
  assert.deepEqual(startFor(4, shown), { kind: 'after', cursor: 'n' });
  assert.deepEqual(startFor(2, shown), { kind: 'before', cursor: 'p' });
  assert.deepEqual(startFor(7, shown), { kind: 'page', page: 7 });
  assert.deepEqual(startFor(1, shown), { kind: 'first' });
  assert.deepEqual(startFor(4, { ...shown, nextCursor: null }), { kind: 'page', page: 4 });
});

Deno.test('in Spanish the footer, the read column and the sizes speak Spanish', async () => {
  await inLanguage('es', () => {
    assert.equal(footerText(2, 10, 35), 'Del 11 al 20 de 35 documentos');
    assert.equal(readText('2025-01-05'), 'Visto el 5 ene 2025');
    assert.equal(readText(null), 'Todavía no se ha visto');
    assert.equal(formatBytes(1536), '1.5 KB');
  });
});

Deno.test('the days on which more than one letter arrived are the ones whose time is shown', () => {
  const days = sharedDays([
    row({ date: '2025-01-05T09:00:00Z' }),
    row({ date: '2025-01-05T15:30:00Z' }),
    row({ date: '2025-01-02T12:00:00Z' }),
    row({ date: '' }),
    row({ date: '' }),
  ]);
  assert.deepEqual([...days], ['Jan 5, 2025']);
});

Deno.test("the cards' sort offers each column in both orders, worded by what the column holds", () => {
  const choices = sortChoices(['name', 'date', 'pages']);
  assert.deepEqual(choices.map(sortValue), [
    'name:asc',
    'name:desc',
    'date:asc',
    'date:desc',
    'pages:asc',
    'pages:desc',
  ]);
  assert.deepEqual(parseSortValue('date:desc', ['name', 'date']), { key: 'date', order: 'desc' });
  assert.equal(parseSortValue('pages:desc', ['name', 'date']), null);
  assert.equal(parseSortValue('date:sideways', ['date']), null);
  assert.deepEqual(
    ['name', 'offenderdocnumber', 'date', 'eformDue', 'pages'].map((key) => sortKind(key as never)),
    [
      'text',
      'text',
      'date',
      'date',
      'number',
    ],
  );
});
