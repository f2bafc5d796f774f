import assert from 'node:assert/strict';
import { inLanguage } from '../../i18n/testing.ts';
import { ApiError } from '../../lib/api.ts';
import { offenderLoadFailure } from './offenderTexts.ts';

Deno.test('offender list failures: 401 signs out, other statuses and exceptions have their own text', () => {
  assert.deepEqual(offenderLoadFailure(new ApiError(401, 'Session expired')), {
    message: 'Authentication failed - please login again',
    signOut: true,
  });
  assert.deepEqual(offenderLoadFailure(new ApiError(404, 'Not found')), {
    message: 'Failed to load documents (Error: 404)',
    signOut: false,
  });
  assert.equal(offenderLoadFailure(new TypeError('boom')).message, 'Error loading documents: boom');
  assert.equal(offenderLoadFailure('weird').message, 'Error loading documents: Unknown error');
  assert.equal(
    offenderLoadFailure(new ApiError(0, null)).message,
    'Error loading documents: The server could not be reached.',
  );
});

Deno.test('offender list failures speak Spanish when Spanish is shown', async () => {
  await inLanguage('es', () => {
    assert.equal(
      offenderLoadFailure(new ApiError(401, 'Session expired')).message,
      'Su sesión terminó. Vuelva a entrar.',
    );
    assert.equal(
      offenderLoadFailure(new ApiError(0, null)).message,
      'No se pudieron cargar los documentos: No se pudo conectar con el servidor.',
    );
  });
});
