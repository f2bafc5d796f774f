/**
 * Precompression of the PWA build: each compressible file gets a `.br` (brotli, quality 11) and a `.gz`
 * (gzip, level 9) sibling, made once when the PWA is built, so the API (api/http/pwa_static.ts) can hand a
 * browser that accepts them the smaller bytes without compressing on every request. The Vite build runs it
 * (pwa/vite.config.ts, after the service worker is written); the tests make their siblings with the same
 * function. Node's own zlib: two calls, no dependency to keep up to date, and Deno runs it as well.
 */
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text formats of the build. Images, fonts and anything already compressed gain nothing and are left alone. */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.webmanifest',
  '.json',
  // pdf.js's WebAssembly decoders (pwa/src/viewer/pdfjsResources.ts): brotli takes about half.
  '.wasm',
]);

/**
 * Below 1 KB the answer fits in one TCP segment (MSS ~1,460 bytes) either way, so compressing it saves no
 * round trip and only costs the browser a decoder.
 */
export const MIN_BYTES = 1024;

/** The sibling suffix of each encoding, in the order the API prefers them (brotli is smaller). */
export const ENCODING_SUFFIX = { br: '.br', gzip: '.gz' } as const;

/** What one file became: its size and, per encoding, the sibling's size (absent when it did not pay). */
export interface Precompressed {
  path: string;
  raw: number;
  br?: number;
  gzip?: number;
}

function compress(encoding: keyof typeof ENCODING_SUFFIX, bytes: Uint8Array): Uint8Array {
  if (encoding === 'br') {
    return brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    });
  }
  return gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
}

/**
 * Writes the `.br` and `.gz` siblings of one file, each only when it is smaller than the file. A sibling that
 * does not pay is removed if an earlier build left one, so a stale sibling can never be served for new bytes.
 */
export function precompressFile(path: string): Precompressed {
  const bytes = readFileSync(path);
  const result: Precompressed = { path, raw: bytes.byteLength };
  for (const encoding of Object.keys(ENCODING_SUFFIX) as (keyof typeof ENCODING_SUFFIX)[]) {
    const sibling = path + ENCODING_SUFFIX[encoding];
    const packed = bytes.byteLength >= MIN_BYTES ? compress(encoding, bytes) : undefined;
    if (packed && packed.byteLength < bytes.byteLength) {
      writeFileSync(sibling, packed);
      result[encoding] = packed.byteLength;
    } else if (existsSync(sibling)) {
      unlinkSync(sibling);
    }
  }
  return result;
}

/** Every compressible file under `dir` (recursively), precompressed; returns what each became. */
export function precompressDir(dir: string): Precompressed[] {
  const results: Precompressed[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) results.push(...precompressDir(path));
    else if (COMPRESSIBLE_EXTENSIONS.has(extname(name).toLowerCase())) results.push(precompressFile(path));
  }
  return results;
}
