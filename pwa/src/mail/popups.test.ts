import assert from 'node:assert/strict';
import { POPUP_FEATURES, VIEW_DELAY_MS, viewerPath } from './popups.ts';

Deno.test('View and Print open the viewer in an 800x800 pop-up, Print in print mode', () => {
  assert.equal(POPUP_FEATURES, 'width=800,height=800');
  assert.equal(VIEW_DELAY_MS, 1500);
  assert.equal(viewerPath('42'), '/pdfViewer/42');
  assert.equal(viewerPath('42', true), '/pdfViewer/42?print=1');
  assert.equal(viewerPath('a/b'), '/pdfViewer/a%2Fb');
});
