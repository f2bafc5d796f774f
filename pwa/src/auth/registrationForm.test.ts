import { inLanguage } from '../i18n/testing.ts';
import assert from 'node:assert/strict';
import {
  blurField,
  checkAll,
  checkForSubmit,
  compareStates,
  editField,
  EMPTY_REGISTRATION,
  type FormState,
  messageText,
  PHONE_BLUR_MESSAGE,
  REGISTRATION_MESSAGES,
  type RegistrationValues,
  setRepresentative,
  stateMatches,
  stateOptions,
  toRegistrationRequest,
} from './registrationForm.ts';

function state(values: Partial<RegistrationValues> = {}, errors: FormState['errors'] = {}): FormState {
  return { values: { ...EMPTY_REGISTRATION, ...values }, errors };
}

const valid: RegistrationValues = {
  ...EMPTY_REGISTRATION,
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.test',
  password: 'Str0ng-pass',
  confirmPassword: 'Str0ng-pass',
  barNumber: 'MO1234',
  barState: 'MO',
  addressLine1: '1 Main St',
  city: 'Jefferson City',
  state: 'MO',
  zipCode: '65101',
};

Deno.test('an empty form fails on the first name with the required-fields message', () => {
  assert.deepEqual(checkForSubmit(EMPTY_REGISTRATION), {
    ok: false,
    field: 'firstName',
    message: 'Please fill in all required fields!',
  });
});

Deno.test('a bad ZIP code fails with the ZIP message', () => {
  assert.deepEqual(checkForSubmit({ ...valid, zipCode: '1234' }), {
    ok: false,
    field: 'zipCode',
    message: 'ZIP Code must be in format 12345 or 12345-6789!',
  });
  assert.deepEqual(checkForSubmit({ ...valid, zipCode: '12345-6789' }), { ok: true });
});

Deno.test('editing a field clears its own error only', () => {
  const next = editField(state({}, { firstName: 'x', email: 'y' }), 'firstName', 'A');
  assert.deepEqual(next.errors, { email: 'y' });
  assert.equal(next.values.firstName, 'A');
});

Deno.test('bar state and state are forced to upper case as typed', () => {
  assert.equal(editField(state(), 'barState', 'mo').values.barState, 'MO');
  assert.equal(editField(state(), 'state', 'ks').values.state, 'KS');
  assert.equal(editField(state(), 'city', 'jefferson').values.city, 'jefferson');
});

Deno.test('typing a password re-checks a confirmation already entered', () => {
  let form = state({ password: 'abcdefgh', confirmPassword: 'abcdefgh' });
  form = editField(form, 'password', 'abcdefghi');
  assert.equal(form.errors.confirmPassword, 'Passwords do not match');
  form = editField(form, 'password', 'abcdefgh');
  assert.equal(form.errors.confirmPassword, undefined);
  assert.deepEqual(
    editField(state(), 'password', 'abc').errors,
    {},
    'no confirmation yet: nothing to re-check',
  );
});

Deno.test('e-mail fields are checked on blur, empty ones are left alone', () => {
  assert.equal(
    blurField(state({ email: 'not-an-email' }), 'email').errors.email,
    'Please enter a valid email address',
  );
  assert.equal(blurField(state({ email: 'a@b.co' }), 'email').errors.email, undefined);
  assert.equal(blurField(state(), 'email').errors.email, undefined);
  assert.equal(
    blurField(state({ supervisingAttorneyEmail: 'x@' }), 'supervisingAttorneyEmail').errors
      .supervisingAttorneyEmail,
    REGISTRATION_MESSAGES.email,
  );
});

Deno.test('a phone number is checked on blur with an example, on submit without', () => {
  assert.equal(PHONE_BLUR_MESSAGE, 'Please enter a valid phone number (e.g., 555-123-4567)');
  assert.equal(blurField(state({ phone: '12345' }), 'phone').errors.phone, PHONE_BLUR_MESSAGE);
  assert.equal(blurField(state({ phone: '555-123-4567' }), 'phone').errors.phone, undefined);
  assert.equal(blurField(state({ phone: '5551234567' }), 'phone').errors.phone, undefined);
  assert.deepEqual(checkForSubmit({ ...valid, phone: '12345' }), {
    ok: false,
    field: 'phone',
    message: 'Please enter a valid phone number',
  });
});

Deno.test('unticking the representative box clears the supervising attorney fields and their errors', () => {
  let form = setRepresentative(state(), true);
  form = editField(form, 'supervisingAttorneyName', 'Sam Senior');
  form = editField(form, 'supervisingAttorneyBar', 'MO9999');
  form = { ...form, errors: { supervisingAttorneyEmail: REGISTRATION_MESSAGES.email, city: 'keep' } };
  form = setRepresentative(form, false);
  assert.equal(form.values.isRepresentative, false);
  assert.equal(form.values.supervisingAttorneyName, '');
  assert.equal(form.values.supervisingAttorneyBar, '');
  assert.equal(form.values.supervisingAttorneyEmail, '');
  assert.deepEqual(form.errors, { city: 'keep' });
});

Deno.test('a representative must give all supervising attorney fields', () => {
  assert.deepEqual(checkForSubmit({ ...valid, isRepresentative: true, supervisingAttorneyName: 'Sam' }), {
    ok: false,
    field: 'supervisingAttorneyBar',
    message: 'Please fill in all supervising attorney fields!',
  });
});

Deno.test('an attorney request has userType attorney and null supervising fields', () => {
  const request = toRegistrationRequest({
    ...valid,
    supervisingAttorneyName: 'left over',
    phone: ' ',
    addressLine2: '',
  });
  assert.equal(request.userType, 'attorney');
  assert.equal(request.isRepresentative, false);
  assert.equal(request.supervisingAttorneyName, null);
  assert.equal(request.supervisingAttorneyBar, null);
  assert.equal(request.supervisingAttorneyEmail, null);
  assert.equal(request.phone, null);
  assert.equal(request.addressLine2, null);
});

Deno.test('a representative request has userType representative and the supervising fields', () => {
  const request = toRegistrationRequest({
    ...valid,
    isRepresentative: true,
    supervisingAttorneyName: ' Sam Senior ',
    supervisingAttorneyBar: 'MO9999',
    supervisingAttorneyEmail: 'sam@example.test',
  });
  assert.equal(request.userType, 'representative');
  assert.equal(request.isRepresentative, true);
  assert.equal(request.supervisingAttorneyName, 'Sam Senior');
  assert.equal(request.supervisingAttorneyEmail, 'sam@example.test');
});

Deno.test('a submit with empty required fields marks them all and names the first in the form to focus', () => {
  const marked = checkAll(state({ lastName: 'Lee', city: 'Jefferson City' }));
  assert.ok(marked);
  assert.equal(marked.first, 'firstName');
  assert.equal(marked.message, REGISTRATION_MESSAGES.required);
  assert.deepEqual(Object.keys(marked.state.errors).sort(), [
    'addressLine1',
    'barNumber',
    'barState',
    'confirmPassword',
    'email',
    'firstName',
    'password',
    'state',
    'zipCode',
  ]);
  const representative = checkAll(state({ ...valid, isRepresentative: true }));
  assert.equal(representative?.first, 'supervisingAttorneyName');
  assert.equal(
    representative?.state.errors.supervisingAttorneyEmail,
    REGISTRATION_MESSAGES.supervisingRequired,
  );
  assert.equal(checkAll(state(valid)), null);
});

Deno.test('every problem is shown at once, and a filled form never says a field is missing', () => {
  const marked = checkAll(state({
    ...valid,
    email: 'not-an-email',
    phone: '12345',
    barState: 'XX',
    state: 'ZZ',
    zipCode: '1234',
  }));
  assert.ok(marked);
  assert.deepEqual(marked.state.errors, {
    email: REGISTRATION_MESSAGES.email,
    phone: REGISTRATION_MESSAGES.phone,
    barState: REGISTRATION_MESSAGES.barStateCode,
    state: REGISTRATION_MESSAGES.stateCode,
    zipCode: REGISTRATION_MESSAGES.zip,
  });
  assert.equal(marked.first, 'email');
  assert.equal(marked.message, REGISTRATION_MESSAGES.email);
});

Deno.test('bar numbers and US phone numbers are accepted the ways people write them, and sent normalised', () => {
  for (const barNumber of ['MO-12345', 'MO 12345', '12345', 'mo12345']) {
    for (const phone of ['(314) 555-1234', '+1 314 555 1234', '314.555.1234']) {
      assert.equal(checkAll(state({ ...valid, barNumber, phone })), null, `${barNumber} ${phone}`);
      const request = toRegistrationRequest({ ...valid, barNumber, phone });
      assert.deepEqual([request.barNumber, request.phone], ['MO12345', '314-555-1234']);
    }
  }
});

Deno.test("a representative gives no bar number of their own: their supervising attorney's is sent", () => {
  const values = {
    ...valid,
    barNumber: '',
    isRepresentative: true,
    supervisingAttorneyName: 'Sam Senior',
    supervisingAttorneyBar: 'MO-9999',
    supervisingAttorneyEmail: 'sam@example.test',
  };
  assert.equal(checkAll(state(values)), null);
  const request = toRegistrationRequest(values);
  assert.deepEqual([request.barNumber, request.supervisingAttorneyBar], ['MO9999', 'MO9999']);
  // Ticking the box takes away an error the hidden field had.
  const ticked = setRepresentative(state(valid, { barNumber: REGISTRATION_MESSAGES.barNumber }), true);
  assert.equal(ticked.errors.barNumber, undefined);
});

Deno.test('the states are offered by name, found by code or by any word of the name, in each language', async () => {
  const english = stateOptions();
  assert.equal(english.length, 56);
  // Every code the rules accept has its name in the catalogue (i18next would show the key otherwise).
  assert.deepEqual(english.filter((o) => o.name.startsWith('usStates.')), []);
  const missouri = english.find((o) => o.value === 'MO');
  assert.equal(missouri?.label, 'Missouri (MO)');
  const found = (typed: string) =>
    english.filter((o) => stateMatches(typed, o)).sort((a, b) => compareStates(a, b, typed)).map((o) =>
      o.value
    );
  assert.deepEqual(found('missouri'), ['MO']);
  assert.equal(found('mi')[0], 'MI');
  assert.equal(found('mo')[0], 'MO');
  assert.ok(found('york').includes('NY'));
  await inLanguage('es', () => {
    const spanish = stateOptions();
    assert.deepEqual(spanish.filter((o) => o.name.startsWith('usStates.')), []);
    assert.equal(spanish.find((o) => o.value === 'MO')?.label, 'Misuri (MO)');
    const typed = 'mexico';
    assert.deepEqual(spanish.filter((o) => stateMatches(typed, o)).map((o) => o.value), ['NM']);
  });
});

Deno.test("the rules' messages are shown in the language shown; the English ones are the API's", async () => {
  for (const message of Object.values(REGISTRATION_MESSAGES)) assert.equal(messageText(message), message);
  assert.equal(messageText(PHONE_BLUR_MESSAGE), PHONE_BLUR_MESSAGE);
  assert.equal(messageText('A refusal the server words itself'), 'A refusal the server words itself');
  await inLanguage('es', () => {
    assert.equal(messageText(REGISTRATION_MESSAGES.passwordMismatch), 'Las contraseñas no coinciden');
    assert.equal(
      messageText(PHONE_BLUR_MESSAGE),
      'Escriba un número de teléfono válido (por ejemplo, 555-123-4567)',
    );
  });
});
