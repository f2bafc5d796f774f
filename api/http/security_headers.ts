/**
 * Headers on every answer. The Content-Security-Policy lets scripts and workers
 * come from our own origin only, with no 'unsafe-eval': the PDF engine and its
 * worker are part of our build. 'wasm-unsafe-eval' lets a page or worker compile
 * WebAssembly, and nothing else: pdf.js decodes JPEG 2000, JBIG2 and fax scans
 * with WebAssembly served from our origin (pwa/src/viewer/pdfjsResources.ts).
 * Styles allow inline because Ant Design writes its CSS at run time.
 */
import { secureHeaders } from 'hono/secure-headers';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  workerSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameSrc: ["'self'", 'blob:'],
  frameAncestors: ["'self'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

export const securityHeaders = secureHeaders({
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  // The viewer opens same-origin pop-ups; a strict opener policy would cut them off.
  crossOriginOpenerPolicy: 'same-origin-allow-popups',
  crossOriginEmbedderPolicy: false,
  referrerPolicy: 'no-referrer',
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  xFrameOptions: 'SAMEORIGIN',
});
