/**
 * The rows of the viewer's Properties modal (spec section 2: file name, size,
 * title, author, subject, keywords, creator, creation and modification date,
 * producer, version, page count). The PDF's own metadata comes from pdf.js;
 * the file name and size come from GET /api/documents/{id}/info, because the
 * viewer reads the bytes from a URL that carries neither.
 */
import { t } from 'i18next';
import { formatDateTime as formatTimestamp, formatNumber } from '../lib/format.ts';

export interface PropertyRow {
  label: string;
  value: string;
}

export interface PropertySources {
  /** pdf.js getMetadata().info: the document information dictionary. */
  info: Record<string, unknown>;
  /** The XMP dc:title, which wins over the info dictionary's Title as in pdf.js. */
  xmpTitle?: string | null;
  /** CreationDate and ModDate, already parsed (pdf.js PDFDateString). */
  creationDate: Date | null;
  modDate: Date | null;
  pageCount: number;
  /** The document's row from the info endpoint; null while unknown. */
  file: { file_name?: string | null; size?: number | null } | null;
}

/** Shown for a field the document does not have. */
export const EMPTY_VALUE = '-';

/** 'Jan 5, 2025, 3:04 PM' (spec section 9's date, with the time of day; '5 ene 2025, 3:04 p.m.' in Spanish). */
export function formatDateTime(date: Date | null): string {
  if (!date || Number.isNaN(date.getTime())) return EMPTY_VALUE;
  return formatTimestamp(date.toISOString());
}

/** '12.1 KB (12,345 bytes)', as pdf.js's own properties dialog writes sizes, in the language shown. */
export function formatFileSize(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return EMPTY_VALUE;
  const exact = t('properties.bytes', { size: formatNumber(bytes) });
  const kb = bytes / 1024;
  if (kb < 1) return exact;
  const digits = { maximumSignificantDigits: 3 };
  const short = kb < 1024
    ? t('list.kilobytes', { size: formatNumber(kb, digits) })
    : t('list.megabytes', { size: formatNumber(kb / 1024, digits) });
  return `${short} (${exact})`;
}

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : EMPTY_VALUE;
}

/** The rows in the order of the spec. */
export function documentProperties(sources: PropertySources): PropertyRow[] {
  const { info, file } = sources;
  const title = sources.xmpTitle?.trim() ? sources.xmpTitle.trim() : text(info.Title);
  return [
    { label: t('properties.fileName'), value: text(file?.file_name) },
    { label: t('properties.fileSize'), value: formatFileSize(file?.size) },
    { label: t('properties.docTitle'), value: title },
    { label: t('properties.author'), value: text(info.Author) },
    { label: t('properties.subject'), value: text(info.Subject) },
    { label: t('properties.keywords'), value: text(info.Keywords) },
    { label: t('properties.creator'), value: text(info.Creator) },
    { label: t('properties.creationDate'), value: formatDateTime(sources.creationDate) },
    { label: t('properties.modDate'), value: formatDateTime(sources.modDate) },
    { label: t('properties.producer'), value: text(info.Producer) },
    { label: t('properties.version'), value: text(info.PDFFormatVersion) },
    { label: t('properties.pageCount'), value: formatNumber(sources.pageCount) },
  ];
}
