/**
 * The files pdf.js fetches only when a document needs them, served from our origin (the build copies them from
 * node_modules/pdfjs-dist: pwa/vite.config.ts): its WebAssembly image decoders (OpenJPEG for JPEG 2000 scans,
 * the JBIG2 and CCITT fax decoder, QCMS for ICC colour) and their plain-JavaScript fallbacks, the CMaps of CJK
 * fonts, the font files of the standard 14 fonts, and the CMYK ICC profile. Scanned court filings are JPEG 2000,
 * Group 4 fax or JBIG2 images; without these a page shows blank where the scan is.
 *
 * They sit under /assets/ with pdf.js's version in the path: served as immutable (a new pdf.js is a new path),
 * and a 404 when missing, never the shell. Nothing here is loaded before a document asks for it.
 */

/** The folder of one pdf.js version's files, from the site's root. */
export function pdfjsResourceBase(version: string): string {
  return `/assets/pdfjs-${version}/`;
}

/**
 * What is copied from each of pdfjs-dist's folders. QuickJS (PDF JavaScript) is left out: scripting is off.
 * The licence files travel with the files they cover.
 */
export const SERVED: Record<string, RegExp> = {
  wasm:
    /^(?:openjpeg|jbig2|qcms_bg)\.wasm$|^(?:openjpeg|jbig2)_nowasm_fallback\.js$|^LICENSE_(?:PDFJS_)?(?:OPENJPEG|JBIG2|QCMS)$/,
  cmaps: /\.bcmap$|^LICENSE$/,
  standard_fonts: /\.(?:pfb|ttf)$|^LICENSE_/,
  iccs: /\.icc$|^LICENSE$/,
};

/**
 * What the service worker precaches for reading offline (docs/offline.md has the sizes):
 * - the WebAssembly decoders, not their JavaScript fallbacks (for a browser without WebAssembly; the
 *   tablets' Chromium has it);
 * - the CMaps of Unicode-encoded CJK text (UCS2, UTF16) and the four Adobe-*-UCS2 that give any CJK font its
 *   text; the legacy national encodings (Shift-JIS, EUC, Big5, GBK…) are fetched when a document uses one;
 * - of the standard fonts, Symbol and ZapfDingbats only: pdf.js draws the other twelve with the system's fonts
 *   and fetches only these two;
 * - the CMYK profile.
 * Workbox glob patterns, relative to the build folder.
 */
export const PRECACHED = [
  'assets/pdfjs-*/wasm/*.wasm',
  'assets/pdfjs-*/cmaps/*{UCS2,UTF16}*.bcmap',
  'assets/pdfjs-*/standard_fonts/Foxit{Symbol,Dingbats}.pfb',
  'assets/pdfjs-*/iccs/*.icc',
];

/** Scripts of that folder the shell's own `**\/*.js` pattern would otherwise precache. */
export const NOT_PRECACHED = ['assets/pdfjs-*/wasm/*_nowasm_fallback.js'];
