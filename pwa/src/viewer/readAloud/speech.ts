/**
 * Read aloud's plain rules, apart from the browser: a page's text as pdf.js extracts it, cut into sentences;
 * the language it is read in; the voice that speaks it. No React and no speech here, so Deno tests them.
 */

/** What pdf.js's getTextContent gives per piece of text (its marked-content entries have no `str`). */
export interface TextPiece {
  str?: string;
  hasEOL?: boolean;
}

/**
 * A page's text in the order pdf.js extracts it (the order the PDF draws it, which is reading order for mail
 * made by a word processor). A line end becomes a space; a word broken by a hyphen at a line end is joined.
 */
export function pageText(pieces: readonly TextPiece[]): string {
  let text = '';
  for (const piece of pieces) {
    if (typeof piece.str !== 'string') continue;
    text += piece.str;
    if (piece.hasEOL) text = /\p{L}-$/u.test(text) ? text.slice(0, -1) : `${text} `;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** A sentence cut at a colon or a semicolon past this many characters: a voice reading on and on loses the reader. */
const LONGEST_SENTENCE = 300;

/**
 * The text cut into sentences, each read and shown on its own. Intl.Segmenter knows abbreviations ("Mr.",
 * "Sr.") and the Spanish "¿…?"; where a browser lacks it, a sentence ends at '.', '!' or '?' followed by a
 * space. A very long sentence (a legal paragraph without a full stop) is cut further at ';' or ':'.
 */
export function splitSentences(text: string, language: string): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  let parts: string[];
  if (typeof Intl.Segmenter === 'function') {
    const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    parts = [...segmenter.segment(clean)].map((s) => s.segment);
  } else {
    parts = clean.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? [clean];
  }
  return parts
    .flatMap((part) => part.length > LONGEST_SENTENCE ? part.split(/(?<=[;:])\s+/) : [part])
    .map((part) => part.trim())
    .filter((part) => /[\p{L}\p{N}]/u.test(part));
}

/** A BCP 47 tag as a PDF or a browser writes it ('en_US', 'ES-es'), in the usual case ('en-US', 'es-ES'). */
export function normalizeLanguage(tag: string | null | undefined): string | null {
  const trimmed = (tag ?? '').trim().replace(/_/g, '-');
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(trimmed)) return null;
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The language a document is read in: the one the PDF declares (its catalog's /Lang, which pdf.js gives as
 * the metadata's `Language`) when it declares a valid one, otherwise the language the reader has the portal in.
 */
export function readingLanguage(declared: string | null | undefined, readerLanguage: string): string {
  return normalizeLanguage(declared) ?? normalizeLanguage(readerLanguage) ?? 'en';
}

/** The part of a voice this module looks at (SpeechSynthesisVoice has more). */
export interface VoiceLike {
  lang: string;
  localService?: boolean;
  default?: boolean;
}

/**
 * The voice for `language`: one for the exact tag first ('es-US'), else one for the same language ('es-MX'
 * for 'es-US'); among equals a voice on the tablet itself (it works offline) before a network one, and the
 * browser's default before the rest. Null when the browser has no voice for the language at all.
 */
export function chooseVoice<V extends VoiceLike>(voices: readonly V[], language: string): V | null {
  const wanted = (normalizeLanguage(language) ?? language).toLowerCase();
  const base = wanted.split('-')[0];
  const score = (voice: V): number => {
    const lang = (normalizeLanguage(voice.lang) ?? voice.lang).toLowerCase();
    if (lang.split('-')[0] !== base) return -1;
    return (lang === wanted ? 4 : 0) + (voice.localService !== false ? 2 : 0) + (voice.default ? 1 : 0);
  };
  let best: V | null = null;
  let bestScore = -1;
  for (const voice of voices) {
    const s = score(voice);
    if (s > bestScore) [best, bestScore] = [voice, s];
  }
  return best;
}

/** The speeds offered: a slower pace helps a reader follow the words on the page. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5] as const;
export type Speed = (typeof SPEEDS)[number];

/** Where reading stands: a page (1-based) and a sentence of it (0-based). */
export interface Position {
  page: number;
  sentence: number;
}
