/**
 * The viewer's report that the reader's screen showed a document (its first page drawn): the only thing that makes
 * a receipt say "opened" (docs/product.md, "How a receipt's states are established"). Bytes leaving the server are
 * a download, not a reading.
 */
import { ApiError, apiRequest } from '../lib/api.ts';
import { viewerCache } from '../offline/viewerCache.ts';
import type { DocumentShownAnswer } from '../../../contract/shapes/document.ts';

/**
 * Tells the API, or, for an offender's document shown from the tablet's cache or while the network dropped, queues
 * the reading for when the network returns (the offline readings' own path, POST /api/documents/offline-events).
 */
export async function reportShown(
  documentId: string,
  source: { fromCache: boolean; offender: boolean },
): Promise<void> {
  if (source.fromCache) return viewerCache.read(documentId, 'view');
  try {
    await apiRequest<DocumentShownAnswer>(`/documents/shown/${encodeURIComponent(documentId)}`, {
      method: 'POST',
      quiet: true,
    });
  } catch (error) {
    if (source.offender && error instanceof ApiError && error.status === 0) {
      return viewerCache.read(documentId, 'view');
    }
    console.error('The document was shown, but the receipt could not be told', error);
  }
}
