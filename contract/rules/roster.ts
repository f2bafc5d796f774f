/**
 * The offender roster file: CSV parsing (RFC 4180) and the rules each row must meet. Pure functions: the
 * import itself (api/domain/offenders.ts) decides what is added or updated.
 */
import { hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from './names.ts';
import type { Language } from '../languages.ts';

/** Largest roster file accepted, in bytes: a state's whole population fits in well under 5 MB. */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;
/** Most data rows in one file: above the largest state prison population, so a real roster always fits. */
export const ROSTER_MAX_ROWS = 50_000;

export const ROSTER_COLUMNS = ['doc_number', 'first_name', 'last_name', 'pin'] as const;
/**
 * Columns a roster may add: `status` (active, released or transferred; blank keeps the offender's status) marks
 * who has left the facility, as the department's own roster export says it; `language` (en or es, or the
 * language's name in English or in itself; blank keeps the offender's saved language) is the language the
 * offender's tablet shows once they sign in.
 */
export const ROSTER_OPTIONAL_COLUMNS = ['status', 'language'] as const;
type Column = typeof ROSTER_COLUMNS[number] | typeof ROSTER_OPTIONAL_COLUMNS[number];

/** The custody states a roster's `status` column may hold. */
export const ROSTER_STATUSES = ['active', 'released', 'transferred'] as const;
export type RosterStatus = typeof ROSTER_STATUSES[number];

/** What a roster's `language` cell may say, lower-cased, for each language: its code and its names. */
const ROSTER_LANGUAGE_WORDS: Record<string, Language> = {
  en: 'en',
  english: 'en',
  es: 'es',
  spanish: 'es',
  'español': 'es',
  espanol: 'es',
};

/** The language a roster's `language` cell names; null for a blank cell, undefined for anything else. */
export function rosterLanguage(cell: string): Language | null | undefined {
  const word = cell.trim().toLowerCase();
  if (word === '') return null;
  return Object.hasOwn(ROSTER_LANGUAGE_WORDS, word) ? ROSTER_LANGUAGE_WORDS[word] : undefined;
}

/**
 * Fewest digits of a new or reset PIN: the floor of the `pin_min_length` setting, which may raise it. A
 * 4-digit PIN (10,000 values) falls to a few bursts of guesses; 6 digits keep the five tries before the lock
 * at one chance in 200,000.
 */
export const PIN_MIN_LENGTH = 6;
/** Most digits of a PIN: more than anyone types on a tablet; bounds the hashing input. */
export const PIN_MAX_LENGTH = 12;

export const OFFENDER_RULES = {
  docNumber: /^[A-Za-z0-9-]{1,32}$/,
  /** At the floor; the API checks the `pin_min_length` setting too (pinProblem). */
  pin: /^\d{6,12}$/,
  nameMax: 100,
} as const;

export const ROSTER_MESSAGES = {
  docNumber: 'DOC number must be 1 to 32 letters, digits or hyphens',
  pin: 'PIN must be 6 to 12 digits',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  firstNameLong: 'First name must be at most 100 characters',
  lastNameLong: 'Last name must be at most 100 characters',
  nameCharacters: NAME_CHARACTERS_MESSAGE,
  pinRequired: 'PIN is required for a new offender',
  pinResetNeedsRange:
    "A PIN for an existing offender is a one-time PIN, which works only on the facility's network: add the facility's IP range in IP Whitelist first",
  empty: 'The file is empty.',
  tooLarge: 'The file is larger than 5 MB.',
  binary: 'The file is not a CSV text file.',
  header:
    'The first row must be the header doc_number,first_name,last_name,pin (and optionally status and language).',
  status: 'Status must be active, released or transferred',
  language: 'Language must be en (English) or es (Spanish)',
  tooManyRows: 'The file has more than 50,000 rows.',
  noRows: 'The file has a header but no offender rows.',
} as const;

export interface OffenderFields {
  docNumber: string;
  firstName: string;
  lastName: string;
  /** Empty when the row gives none (an update keeps the current PIN). */
  pin: string;
}

/** The refusal of a PIN that is not `minLength` to 12 digits. */
export function pinLengthMessage(minLength: number): string {
  return `PIN must be ${minLength} to ${PIN_MAX_LENGTH} digits`;
}

/** The hint under a PIN field, the same rule as its refusal: '6 to 12 digits'. */
export function pinLengthHint(minLength: number): string {
  return `${Math.max(minLength, PIN_MIN_LENGTH)} to ${PIN_MAX_LENGTH} digits`;
}

/**
 * A new PIN's problem, if any: digits only, `minLength` (the `pin_min_length` setting, never under the floor)
 * to 12 of them.
 */
export function pinProblem(pin: string, minLength = PIN_MIN_LENGTH): string | undefined {
  const min = Math.max(minLength, PIN_MIN_LENGTH);
  return /^\d+$/.test(pin) && pin.length >= min && pin.length <= PIN_MAX_LENGTH
    ? undefined
    : pinLengthMessage(min);
}

/**
 * Why a roster row is rejected, as a code: the report carries it beside the English reason, so the PWA words
 * it in the language shown (its catalogues' `users.import.reasons`); the values a reason names (the PIN's
 * lengths, a field count, a line) travel beside it as `params`.
 */
export const ROSTER_REJECTIONS = [
  'docNumber',
  'pin',
  'firstName',
  'lastName',
  'firstNameLong',
  'lastNameLong',
  'nameCharacters',
  'pinRequired',
  /** A PIN for an existing offender (a PIN reset) while the entity has no active IP range. */
  'pinResetNeedsRange',
  'status',
  'language',
  'fieldCount',
  'duplicate',
  'notSaved',
] as const;
export type RosterRejectionCode = typeof ROSTER_REJECTIONS[number];

/** A rule a row breaks: its code, its values, and its English reason. */
export interface RosterRejection {
  code: RosterRejectionCode;
  reason: string;
  params?: Record<string, number>;
}

/** The first rule one offender's fields break (API form or roster row), or undefined. */
export function offenderRejection(
  o: OffenderFields,
  options: { pinRequired: boolean; pinMinLength?: number },
): RosterRejection | undefined {
  const rule = (code: Exclude<RosterRejectionCode, 'pin'>): RosterRejection => ({
    code,
    reason: ROSTER_MESSAGES[code as keyof typeof ROSTER_MESSAGES],
  });
  if (!OFFENDER_RULES.docNumber.test(o.docNumber)) return rule('docNumber');
  if (!o.firstName) return rule('firstName');
  if (o.firstName.length > OFFENDER_RULES.nameMax) return rule('firstNameLong');
  if (!o.lastName) return rule('lastName');
  if (o.lastName.length > OFFENDER_RULES.nameMax) return rule('lastNameLong');
  if (hasUnsafeNameCharacters(o.firstName) || hasUnsafeNameCharacters(o.lastName)) {
    return rule('nameCharacters');
  }
  if (o.pin === '' && options.pinRequired) return rule('pinRequired');
  if (o.pin !== '') {
    const reason = pinProblem(o.pin, options.pinMinLength);
    const min = Math.max(options.pinMinLength ?? PIN_MIN_LENGTH, PIN_MIN_LENGTH);
    if (reason) return { code: 'pin', reason, params: { min, max: PIN_MAX_LENGTH } };
  }
  return undefined;
}

/** Checks the fields of one offender (API form or roster row); returns the first broken rule's message. */
export function offenderProblem(
  o: OffenderFields,
  options: { pinRequired: boolean; pinMinLength?: number },
): string | undefined {
  return offenderRejection(o, options)?.reason;
}

/** A CSV record and the line of the file it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export type CsvResult = { ok: true; records: CsvRecord[] } | { ok: false; message: string; tooMany?: true };

/**
 * Parses RFC 4180 CSV: fields separated by commas, records by CRLF or LF, a field in double quotes may hold
 * commas, line breaks and doubled quotes. A quote inside an unquoted field is kept as a character (lenient,
 * as spreadsheets are). Stops with a message at an unclosed quote, text after a closing quote, or when
 * there are more than `maxRecords` records. Entirely blank lines are skipped.
 */
export function parseCsv(text: string, options: { maxRecords: number }): CsvResult {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let atFieldStart = true;
  let recordTouched = false;
  const endRecord = () => {
    fields.push(field);
    if (recordTouched) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    atFieldStart = true;
    recordTouched = false;
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && atFieldStart) {
      // A quoted field: runs to the next quote that is not doubled.
      atFieldStart = false;
      recordTouched = true;
      const openedOn = line;
      i++;
      while (true) {
        if (i >= text.length) {
          return { ok: false, message: `A quoted field opened on line ${openedOn} is never closed.` };
        }
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\n') line++;
        field += c;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        return { ok: false, message: `Line ${line}: a closing quote must end its field.` };
      }
      continue;
    }
    if (ch === ',') {
      fields.push(field);
      field = '';
      atFieldStart = true;
      recordTouched = true;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      if (records.length > options.maxRecords) {
        return { ok: false, message: `More than ${options.maxRecords} records.`, tooMany: true };
      }
      continue;
    }
    field += ch;
    atFieldStart = false;
    recordTouched = true;
    i++;
  }
  if (recordTouched) endRecord();
  if (records.length > options.maxRecords) {
    return { ok: false, message: `More than ${options.maxRecords} records.`, tooMany: true };
  }
  return { ok: true, records };
}

/** 'DOC Number', 'doc_number' and 'Doc-Number' all name the same column. */
function columnKey(header: string): string {
  return header.trim().toLowerCase().replace(/[\s_-]+/g, '');
}

const COLUMN_BY_KEY = new Map<string, Column>(
  [...ROSTER_COLUMNS, ...ROSTER_OPTIONAL_COLUMNS].map((c) => [columnKey(c), c]),
);

export interface RosterRow extends OffenderFields {
  line: number;
  /** The row's `status`; null when the file has no such column or the cell is blank (the status is kept). */
  status: RosterStatus | null;
  /** The row's `language`; null when the file has no such column or the cell is blank (the saved one is kept). */
  language: Language | null;
}

export interface RejectedRow extends RosterRejection {
  line: number;
  docNumber: string;
}

export type RosterParse =
  | { ok: true; rows: RosterRow[]; rejected: RejectedRow[] }
  | { ok: false; message: string };

/** Decodes the bytes as UTF-8 text (without a BOM); undefined when they are not text. */
export function decodeRosterBytes(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  // A NUL or other control characters (tab, CR, LF aside) mean a binary file, not a spreadsheet export.
  // deno-lint-ignore no-control-regex -- matching control characters is the point here
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return undefined;
  return text;
}

/**
 * Reads a roster file into rows that meet the field rules and rows rejected with their reason. A file that
 * is not such a CSV (empty, binary, too big, no or wrong header, too many rows) is refused as a whole.
 * A DOC number that appears again later in the file is rejected there, pointing at its first line.
 * `pinMinLength` is the `pin_min_length` setting (default: the floor).
 */
export function parseRoster(bytes: Uint8Array, options: { pinMinLength?: number } = {}): RosterParse {
  if (bytes.length > ROSTER_MAX_BYTES) return { ok: false, message: ROSTER_MESSAGES.tooLarge };
  const text = decodeRosterBytes(bytes);
  if (text === undefined) return { ok: false, message: ROSTER_MESSAGES.binary };
  if (text.trim() === '') return { ok: false, message: ROSTER_MESSAGES.empty };
  const csv = parseCsv(text, { maxRecords: ROSTER_MAX_ROWS + 1 });
  if (!csv.ok) {
    const message = csv.tooMany ? ROSTER_MESSAGES.tooManyRows : `The file is not a valid CSV. ${csv.message}`;
    return { ok: false, message };
  }
  const [header, ...records] = csv.records;
  const columns = header.fields.map((f) => COLUMN_BY_KEY.get(columnKey(f)));
  const known = columns.every((c) => c !== undefined) && new Set(columns).size === columns.length;
  const complete = known && ROSTER_COLUMNS.every((c) => columns.includes(c));
  if (!complete) return { ok: false, message: ROSTER_MESSAGES.header };
  if (records.length === 0) return { ok: false, message: ROSTER_MESSAGES.noRows };

  const rows: RosterRow[] = [];
  const rejected: RejectedRow[] = [];
  const firstLine = new Map<string, number>();
  for (const record of records) {
    const value = (c: Column) => columns.includes(c) ? (record.fields[columns.indexOf(c)] ?? '').trim() : '';
    const docNumber = value('doc_number');
    if (record.fields.length !== columns.length) {
      rejected.push({
        line: record.line,
        docNumber,
        code: 'fieldCount',
        reason: `The row has ${record.fields.length} fields; the header has ${columns.length}`,
        params: { fields: record.fields.length, expected: columns.length },
      });
      continue;
    }
    const row: RosterRow = {
      line: record.line,
      docNumber,
      firstName: value('first_name'),
      lastName: value('last_name'),
      pin: value('pin'),
      status: null,
      language: null,
    };
    const status = value('status').toLowerCase();
    if (status !== '') {
      if (!(ROSTER_STATUSES as readonly string[]).includes(status)) {
        rejected.push({ line: record.line, docNumber, code: 'status', reason: ROSTER_MESSAGES.status });
        continue;
      }
      row.status = status as RosterStatus;
    }
    const language = rosterLanguage(value('language'));
    if (language === undefined) {
      rejected.push({ line: record.line, docNumber, code: 'language', reason: ROSTER_MESSAGES.language });
      continue;
    }
    row.language = language;
    // Whether a PIN is needed depends on the offender existing: the import decides that.
    const problem = offenderRejection(row, { pinRequired: false, pinMinLength: options.pinMinLength });
    if (problem) {
      rejected.push({ line: record.line, docNumber, ...problem });
      continue;
    }
    const seen = firstLine.get(docNumber);
    if (seen !== undefined) {
      rejected.push({
        line: record.line,
        docNumber,
        code: 'duplicate',
        reason: `Duplicate DOC number in the file (first on line ${seen})`,
        params: { line: seen },
      });
      continue;
    }
    firstLine.set(docNumber, record.line);
    rows.push(row);
  }
  return { ok: true, rows, rejected };
}
