import assert from 'node:assert/strict';
import { inLanguage } from '../i18n/testing.ts';
import {
  ApiError,
  apiRequest,
  dispositionFilename,
  failureMessage,
  readResponse,
  requestHeaders,
  setApiEvents,
} from './api.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Runs `fn` with fetch answering `response` and records the requests. */
async function withFetch<T>(
  response: () => Response | Promise<Response>,
  fn: (seen: Request[]) => Promise<T>,
): Promise<T> {
  const original = globalThis.fetch;
  const seen: Request[] = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(new URL(String(input), 'http://app.test'), init));
    return Promise.resolve(response());
  };
  try {
    return await fn(seen);
  } finally {
    globalThis.fetch = original;
    setApiEvents({});
  }
}

Deno.test('a successful answer is returned as its parsed body', async () => {
  const body = await readResponse<{ token: string }>(
    json(200, { success: true, token: 't', message: 'Logged in!' }),
  );
  assert.equal(body.token, 't');
  assert.equal(body.message, 'Logged in!');
});

Deno.test('an error answer throws ApiError with the status and the server message', async () => {
  const error = await readResponse(
    json(401, { success: false, message: 'Please check your login credentials.' }),
  )
    .catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 401);
  assert.equal(error.serverMessage, 'Please check your login credentials.');
  assert.equal(error.message, 'Please check your login credentials.');
});

Deno.test('an error answer that is not JSON throws ApiError without a server message', async () => {
  const error = await readResponse(new Response('<html>Bad gateway</html>', { status: 502 })).catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 502);
  assert.equal(error.serverMessage, null);
});

Deno.test('failure text prefers the server message, then the default for a failed answer, then for an exception', () => {
  const texts = { failed: 'Failed to fetch registrations', error: 'Failed to load pending registrations' };
  assert.equal(
    failureMessage(new ApiError(400, 'Registration not found.'), texts),
    'Registration not found.',
  );
  assert.equal(failureMessage(new ApiError(500, null), texts), 'Failed to fetch registrations');
  assert.equal(failureMessage(new ApiError(0, null), texts), 'Failed to load pending registrations');
  assert.equal(failureMessage(new TypeError('boom'), texts), 'Failed to load pending registrations');
  assert.equal(
    failureMessage(new TypeError('boom'), { failed: 'Login failed. Please try again.' }),
    'Login failed. Please try again.',
  );
});

Deno.test("a refusal's code is shown in the language shown; English keeps the server's own words", async () => {
  const texts = { failed: 'Login failed. Please try again.' };
  const wrongPin = new ApiError(401, 'Please check your login credentials.', 'bad_credentials');
  assert.equal(failureMessage(wrongPin, texts), 'Please check your login credentials.');
  const duplicate = new ApiError(
    409,
    'This IP range is already in the whitelist (as 10.0.0.0/8).',
    'ip_range_duplicate',
    '10.0.0.0/8',
  );
  const invalid = new ApiError(400, 'Email is required', 'invalid');
  assert.equal(failureMessage(invalid, texts), 'Email is required');
  await inLanguage('es', () => {
    assert.match(failureMessage(wrongPin, texts), /^Los datos no son correctos/);
    assert.equal(
      failureMessage(duplicate, texts),
      'Este rango de IP ya está en la lista de permitidos (como 10.0.0.0/8).',
    );
    assert.equal(failureMessage(invalid, texts), 'Hay un dato que no es válido. Revise el formulario.');
    // A code with no text, in Spanish: the screen's own default rather than the server's English.
    assert.equal(
      failureMessage(new ApiError(400, 'Something new.', 'no_such_code'), { failed: 'Falló.' }),
      'Falló.',
    );
  });
});

Deno.test('requests carry the bearer token and a JSON content type only when they have a JSON body', () => {
  const withBody = requestHeaders({ a: 1 }, 'tok');
  assert.equal(withBody.get('Authorization'), 'Bearer tok');
  assert.equal(withBody.get('Content-Type'), 'application/json');
  const multipart = requestHeaders(new FormData(), null);
  assert.equal(multipart.get('Authorization'), null);
  assert.equal(multipart.get('Content-Type'), null);
});

Deno.test('a Blob body (the roster CSV) is sent as it is, typed by the Blob', async () => {
  await withFetch(() => json(200, { success: true }), async (seen) => {
    await apiRequest('/admin/offenders/import', { body: new Blob(['doc_number\r\n'], { type: 'text/csv' }) });
    assert.equal(seen[0].method, 'POST');
    assert.equal(seen[0].headers.get('Content-Type'), 'text/csv');
    assert.equal(await seen[0].text(), 'doc_number\r\n');
  });
});

Deno.test('apiRequest calls the relative /api path with the given token and JSON body', async () => {
  await withFetch(() => json(200, { success: true }), async (seen) => {
    await apiRequest('/approver/registrations/r1/reject', {
      body: { reason: 'No bar record' },
      token: 'tok',
    });
    assert.equal(seen.length, 1);
    assert.equal(new URL(seen[0].url).pathname, '/api/approver/registrations/r1/reject');
    assert.equal(seen[0].method, 'POST');
    assert.equal(seen[0].headers.get('Authorization'), 'Bearer tok');
    assert.deepEqual(await seen[0].json(), { reason: 'No bar record' });
  });
});

Deno.test('a 401 on a call with a token fires the unauthorized hook; a quiet call does not', async () => {
  await withFetch(() => json(401, { success: false, message: 'Please sign in to continue.' }), async () => {
    const fired: string[] = [];
    setApiEvents({ onUnauthorized: (e) => fired.push(e.serverMessage ?? '') });
    await assert.rejects(apiRequest('/auth/me', { token: 'old' }), ApiError);
    await assert.rejects(apiRequest('/auth/logout', { method: 'POST', token: 'old', quiet: true }), ApiError);
    assert.deepEqual(fired, ['Please sign in to continue.']);
  });
});

Deno.test('a 401 on a call without a token (a refused sign-in) does not fire the unauthorized hook', async () => {
  await withFetch(
    () => json(401, { success: false, message: 'Please check your login credentials.' }),
    async () => {
      let fired = 0;
      setApiEvents({ onUnauthorized: () => fired++ });
      await assert.rejects(apiRequest('/auth/login', { body: {}, auth: false }), ApiError);
      assert.equal(fired, 0);
    },
  );
});

Deno.test('a required password change fires its hook', async () => {
  const answer = {
    success: false,
    message: 'You must set a new password before continuing.',
    code: 'password_change_required',
  };
  await withFetch(() => json(403, answer), async () => {
    let fired = 0;
    setApiEvents({ onPasswordChangeRequired: () => fired++ });
    const error = await apiRequest('/approver/registrations', { token: 'tok' }).catch((e) => e);
    assert.equal(error.code, 'password_change_required');
    assert.equal(fired, 1);
  });
});

Deno.test('an unreachable server becomes ApiError with status 0', async () => {
  await withFetch(() => Promise.reject(new TypeError('Failed to fetch')), async () => {
    const error = await apiRequest('/config', { auth: false }).catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 0);
  });
});

Deno.test('a download file name is read from Content-Disposition', () => {
  assert.equal(
    dispositionFilename('attachment; filename="audit-logs-2025-01-05.csv"'),
    'audit-logs-2025-01-05.csv',
  );
  assert.equal(dispositionFilename("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"), 'résumé.pdf');
  assert.equal(dispositionFilename('inline'), null);
  assert.equal(dispositionFilename(null), null);
});

Deno.test("a refusal counted in minutes says '1 minute' and '10 minutes', in each language", async () => {
  const texts = { failed: 'Login failed. Please try again.' };
  const locked = (minutes: number) =>
    new ApiError(401, 'Too many failed sign-ins.', 'account_locked', String(minutes));
  assert.equal(
    failureMessage(locked(10), texts),
    'Too many failed sign-ins: this account is locked for 10 minutes. Please sign in again after that.',
  );
  assert.equal(
    failureMessage(locked(1), texts),
    'Too many failed sign-ins: this account is locked for 1 minute. Please sign in again after that.',
  );
  await inLanguage('es', () => {
    assert.match(failureMessage(locked(10), texts), /bloqueada durante 10 minutos\./);
    assert.match(failureMessage(locked(1), texts), /bloqueada durante 1 minuto\./);
  });
});

Deno.test('a sign-in refused for now says how long to wait: minutes for the address, seconds for the account', async () => {
  const texts = { failed: 'Login failed. Please try again.' };
  const refused = (code: string, detail: number) => new ApiError(429, 'Too many.', code, String(detail));
  assert.equal(
    failureMessage(refused('throttled', 30), texts),
    'Too many failed sign-in attempts from this device. Please try again in 30 minutes.',
  );
  assert.equal(
    failureMessage(refused('sign_in_wait', 1), texts),
    'Too many failed sign-ins for this account. Please wait 1 second and try again.',
  );
  assert.equal(
    failureMessage(refused('unlock_wait', 20), texts),
    'Too many wrong PINs. Please wait 20 seconds and enter your PIN again.',
  );
  await inLanguage('es', () => {
    assert.match(failureMessage(refused('throttled', 30), texts), /dentro de 30 minutos\./);
    assert.match(failureMessage(refused('throttled', 1), texts), /dentro de 1 minuto\./);
    assert.match(failureMessage(refused('sign_in_wait', 20), texts), /Espere 20 segundos/);
    assert.match(failureMessage(refused('unlock_wait', 1), texts), /Espere 1 segundo y/);
  });
});
