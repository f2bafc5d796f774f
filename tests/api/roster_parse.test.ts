import assert from 'node:assert/strict';
import { parseCsv, parseRoster, ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../contract/rules/roster.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const refused = (text: string | Uint8Array) => {
  const r = parseRoster(typeof text === 'string' ? bytes(text) : text);
  assert.equal(r.ok, false);
  return (r as { message: string }).message;
};

Deno.test('parseCsv reads quoted fields with commas, doubled quotes and line breaks (RFC 4180)', () => {
  const r = parseCsv('a,"b,1","say ""hi""","two\r\nlines"\r\nx,y,,z', { maxRecords: 10 });
  assert.ok(r.ok);
  assert.deepEqual(r.records, [
    { line: 1, fields: ['a', 'b,1', 'say "hi"', 'two\r\nlines'] },
    { line: 3, fields: ['x', 'y', '', 'z'] },
  ]);
});

Deno.test('parseCsv skips blank lines, accepts LF and a missing final newline', () => {
  const r = parseCsv('h1,h2\n\n1,2\n\n3,4', { maxRecords: 10 });
  assert.ok(r.ok);
  assert.deepEqual(r.records.map((x) => [x.line, x.fields]), [[1, ['h1', 'h2']], [3, ['1', '2']], [5, [
    '3',
    '4',
  ]]]);
});

Deno.test('parseCsv refuses an unclosed quote and text after a closing quote', () => {
  assert.equal(parseCsv('a,"open\nno end', { maxRecords: 10 }).ok, false);
  assert.equal(parseCsv('a,"x"y\n', { maxRecords: 10 }).ok, false);
});

Deno.test('parseRoster normalises headers, strips a BOM and trims values', () => {
  const r = parseRoster(
    bytes('\uFEFFDOC Number, First Name ,LAST_NAME,Pin\r\n 200001 , Ann ,Lee,123456\r\n'),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.rows, [{
    line: 2,
    docNumber: '200001',
    firstName: 'Ann',
    lastName: 'Lee',
    pin: '123456',
    status: null,
    language: null,
  }]);
  assert.deepEqual(r.rejected, []);
});

Deno.test('parseRoster reads an optional status column: active, released or transferred, blank keeps it', () => {
  const r = parseRoster(
    bytes(
      'doc_number,first_name,last_name,pin,Status\nA1,Ann,Lee,,Released\nA2,Bo,Kim,,\nA3,Cy,Ng,,paroled\n',
    ),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.rows.map((row) => [row.docNumber, row.status]), [['A1', 'released'], ['A2', null]]);
  assert.deepEqual(r.rejected, [{
    line: 4,
    docNumber: 'A3',
    code: 'status',
    reason: ROSTER_MESSAGES.status,
  }]);
  assert.equal(
    refused('doc_number,first_name,last_name,pin,status,status\nA1,A,B,,\n'),
    ROSTER_MESSAGES.header,
  );
});

Deno.test('parseRoster reads an optional language column: a code or a name, blank keeps it, others refused', () => {
  const r = parseRoster(
    bytes(
      'doc_number,first_name,last_name,pin,Language\nA1,Ann,Lee,,es\nA2,Bo,Kim,,English\nA3,Cy,Ng,,Español\n' +
        'A4,Di,Ro,,SPANISH\nA5,Ed,Yu,,\nA6,Flo,Ma,,fr\nA7,Gus,Po,,Klingon\n',
    ),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.rows.map((row) => [row.docNumber, row.language]), [
    ['A1', 'es'],
    ['A2', 'en'],
    ['A3', 'es'],
    ['A4', 'es'],
    ['A5', null],
  ]);
  assert.deepEqual(r.rejected, [
    { line: 7, docNumber: 'A6', code: 'language', reason: ROSTER_MESSAGES.language },
    { line: 8, docNumber: 'A7', code: 'language', reason: ROSTER_MESSAGES.language },
  ]);
});

Deno.test('parseRoster accepts the columns in any order', () => {
  const r = parseRoster(bytes('pin,last_name,first_name,doc_number\n654321,Lee,Ann,A-1\n'));
  assert.ok(r.ok);
  assert.deepEqual(r.rows[0], {
    line: 2,
    docNumber: 'A-1',
    firstName: 'Ann',
    lastName: 'Lee',
    pin: '654321',
    status: null,
    language: null,
  });
});

Deno.test('parseRoster rejects bad rows with their reason and keeps the good ones', () => {
  const csv = [
    'doc_number,first_name,last_name,pin',
    '300001,Ann,Lee,123456',
    'bad doc!,Ann,Lee,123456',
    '300002,,Lee,123456',
    '300003,Ann,,123456',
    '300004,Ann,Lee,12345',
    '300005,Ann,Lee,1234ab',
    '300001,Again,Lee,999999',
    '300006,Ann,Lee',
    '"30\n07",Ann,Lee,123456',
    '300008,Ann,Lee,',
  ].join('\n');
  const r = parseRoster(bytes(csv));
  assert.ok(r.ok);
  assert.deepEqual(r.rows.map((x) => x.docNumber), ['300001', '300008']);
  assert.deepEqual(r.rejected.map((x) => [x.line, x.reason]), [
    [3, ROSTER_MESSAGES.docNumber],
    [4, 'First name is required'],
    [5, 'Last name is required'],
    [6, 'PIN must be 6 to 12 digits'],
    [7, 'PIN must be 6 to 12 digits'],
    [8, 'Duplicate DOC number in the file (first on line 2)'],
    [9, 'The row has 3 fields; the header has 4'],
    [10, 'DOC number must be 1 to 32 letters, digits or hyphens'],
  ]);
  assert.equal(r.rejected[7].docNumber, '30\n07');
});

Deno.test('parseRoster takes the pin_min_length setting, never under the floor of 6', () => {
  const csv = bytes('doc_number,first_name,last_name,pin\n1,A,B,1234567\n2,A,B,12345678\n3,A,B,12345\n');
  const raised = parseRoster(csv, { pinMinLength: 8 });
  assert.ok(raised.ok);
  assert.deepEqual(raised.rows.map((x) => x.docNumber), ['2']);
  assert.deepEqual(raised.rejected.map((x) => x.reason), [
    'PIN must be 8 to 12 digits',
    'PIN must be 8 to 12 digits',
  ]);
  const lowered = parseRoster(csv, { pinMinLength: 4 });
  assert.ok(lowered.ok);
  assert.deepEqual(lowered.rejected.map((x) => [x.docNumber, x.reason]), [[
    '3',
    'PIN must be 6 to 12 digits',
  ]]);
});

Deno.test('parseRoster refuses a file that is not a roster CSV', () => {
  assert.equal(refused(''), ROSTER_MESSAGES.empty);
  assert.equal(refused('\uFEFF \r\n'), ROSTER_MESSAGES.empty);
  assert.equal(refused('name,pin\nAnn,1234\n'), ROSTER_MESSAGES.header);
  assert.equal(refused('doc_number,first_name,last_name,pin,extra\n1,a,b,1234,x\n'), ROSTER_MESSAGES.header);
  assert.equal(refused('200001,Ann,Lee,1234\n'), ROSTER_MESSAGES.header);
  assert.equal(refused('doc_number,first_name,last_name,pin\n'), ROSTER_MESSAGES.noRows);
  assert.equal(
    refused(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x01])),
    ROSTER_MESSAGES.binary,
  );
  assert.equal(refused(new Uint8Array(ROSTER_MAX_BYTES + 1).fill(0x61)), ROSTER_MESSAGES.tooLarge);
  assert.match(refused('doc_number,first_name,last_name,pin\n"1,a,b,1234\n'), /never closed/);
});

Deno.test('parseRoster refuses more than 50,000 rows but takes exactly 50,000', () => {
  const header = 'doc_number,first_name,last_name,pin\n';
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `D${i},A,B,`).join('\n');
  assert.equal(refused(header + rows(50_001)), ROSTER_MESSAGES.tooManyRows);
  const ok = parseRoster(bytes(header + rows(50_000)));
  assert.ok(ok.ok);
  assert.equal(ok.rows.length, 50_000);
});
