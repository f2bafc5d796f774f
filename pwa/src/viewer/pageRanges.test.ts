import assert from 'node:assert/strict';
import { allPages, parsePageRanges } from './pageRanges.ts';

Deno.test('single pages and ranges are combined in page order', () => {
  assert.deepEqual(parsePageRanges('1-3, 5, 7-9', 10), { pages: [1, 2, 3, 5, 7, 8, 9], invalid: [] });
  assert.deepEqual(parsePageRanges('5, 1', 10).pages, [1, 5]);
});

Deno.test('duplicate pages and overlapping ranges are printed once', () => {
  assert.deepEqual(parsePageRanges('2, 2, 1-3, 3-4', 10).pages, [1, 2, 3, 4]);
});

Deno.test('pages outside the document are ignored, and ranges are cut to it', () => {
  assert.deepEqual(parsePageRanges('0, 4, 12', 5).pages, [4]);
  assert.deepEqual(parsePageRanges('4-9', 5).pages, [4, 5]);
  assert.deepEqual(parsePageRanges('7-9', 5).pages, []);
});

Deno.test('open and reversed ranges are understood', () => {
  assert.deepEqual(parsePageRanges('4-', 6).pages, [4, 5, 6]);
  assert.deepEqual(parsePageRanges('-2', 6).pages, [1, 2]);
  assert.deepEqual(parsePageRanges('3-1', 6).pages, [1, 2, 3]);
  assert.deepEqual(parsePageRanges('2 - 3', 6).pages, [2, 3]);
});

Deno.test('empty parts are skipped and unreadable parts are reported', () => {
  assert.deepEqual(parsePageRanges(' , 1,,', 3), { pages: [1], invalid: [] });
  assert.deepEqual(parsePageRanges('1, abc, 2-x, -, 1.5', 3), {
    pages: [1],
    invalid: ['abc', '2-x', '-', '1.5'],
  });
  assert.deepEqual(parsePageRanges('', 3), { pages: [], invalid: [] });
});

Deno.test('all pages of a document', () => {
  assert.deepEqual(allPages(3), [1, 2, 3]);
  assert.deepEqual(allPages(0), []);
});
