/**
 * The rows of the viewer's Properties modal (spec section 2: file name, size,
 * title, author, subject, keywords, creator, creation and modification date,
 * producer, version, page count). The PDF's own metadata comes from pdf.js;
 * the file name and size come from GET /api/documents/{id}/info, because the
 * viewer reads the bytes from a URL that carries neither.
 */
import { formatDate } from '../lib/format.ts';

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

const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** 'Jan 5, 2025, 3:04 PM' (spec section 9's date, with the time of day). */
export function formatDateTime(date: Date | null): string {
  if (!date || Number.isNaN(date.getTime())) return EMPTY_VALUE;
  return `${formatDate(date)}, ${TIME.format(date)}`;
}

/** '12.1 KB (12,345 bytes)', as pdf.js's own properties dialog writes sizes. */
export function formatFileSize(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return EMPTY_VALUE;
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  const kb = bytes / 1024;
  if (kb < 1) return exact;
  const short = kb < 1024
    ? `${kb.toLocaleString('en-US', { maximumSignificantDigits: 3 })} KB`
    : `${(kb / 1024).toLocaleString('en-US', { maximumSignificantDigits: 3 })} MB`;
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
    { label: 'File name', value: text(file?.file_name) },
    { label: 'File size', value: formatFileSize(file?.size) },
    { label: 'Title', value: title },
    { label: 'Author', value: text(info.Author) },
    { label: 'Subject', value: text(info.Subject) },
    { label: 'Keywords', value: text(info.Keywords) },
    { label: 'Creator', value: text(info.Creator) },
    { label: 'Creation date', value: formatDateTime(sources.creationDate) },
    { label: 'Modification date', value: formatDateTime(sources.modDate) },
    { label: 'PDF producer', value: text(info.Producer) },
    { label: 'PDF version', value: text(info.PDFFormatVersion) },
    { label: 'Page count', value: String(sources.pageCount) },
  ];
}
