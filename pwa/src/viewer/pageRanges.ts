/**
 * The print page-range field of the viewer (spec section 2): a comma-separated
 * list of 1-based pages and ranges such as '1-3, 5, 7-9'. Duplicates are
 * dropped and pages outside 1..pageCount are ignored. A part that is not a
 * number or a range is reported, so the modal can say what it did not
 * understand instead of silently printing something else.
 */

export interface PageRangeResult {
  /** The pages to print, ascending, each once. */
  pages: number[];
  /** The parts of the input that are neither a page nor a range, as typed. */
  invalid: string[];
}

const PAGE = /^\d+$/;
// 'a-b', and the open forms '-b' (from the first page) and 'a-' (to the last).
const RANGE = /^(\d*)\s*[-\u2013]\s*(\d*)$/;

/** Parses `input` against a document of `pageCount` pages. */
export function parsePageRanges(input: string, pageCount: number): PageRangeResult {
  const chosen = new Set<number>();
  const invalid: string[] = [];
  const add = (from: number, to: number) => {
    const low = Math.max(1, Math.min(from, to));
    const high = Math.min(pageCount, Math.max(from, to));
    for (let page = low; page <= high; page++) chosen.add(page);
  };
  for (const raw of input.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    if (PAGE.test(part)) {
      const page = Number(part);
      add(page, page);
      continue;
    }
    const range = RANGE.exec(part);
    if (range && (range[1] !== '' || range[2] !== '')) {
      const from = range[1] === '' ? 1 : Number(range[1]);
      const to = range[2] === '' ? pageCount : Number(range[2]);
      add(from, to);
      continue;
    }
    invalid.push(part);
  }
  return { pages: [...chosen].sort((a, b) => a - b), invalid };
}

/** Every page of a document of `pageCount` pages. */
export function allPages(pageCount: number): number[] {
  return Array.from({ length: Math.max(0, pageCount) }, (_, index) => index + 1);
}
