/**
 * CSV writing (RFC 4180) that is safe for values typed by users.
 *
 * - Quoting: a cell containing a comma, a double quote, CR or LF is wrapped in double quotes and its quotes
 *   doubled, so a DOC number with a newline or a quote can never split or shift a row. Rows end with CRLF.
 * - Formula injection: spreadsheets run a cell starting with = + - @ (or a tab / CR, which some strip first)
 *   as a formula. Such a cell gets a leading apostrophe (the OWASP "CSV injection" advice), which Excel and
 *   LibreOffice show as text; a reader of the raw file sees the apostrophe and knows why.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: neutralised against formulas, then quoted when needed. Null and undefined become empty. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row, CRLF-terminated. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
