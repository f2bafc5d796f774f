/** GET /api/recipients/{docNumber}: who a DOC number is, before a sender sends to it. */

/**
 * Only this much of the roster is shown: the last name in capitals and the first initial ("SMITH, J."), the
 * one name alone when there is only one ("MADONNA").
 */
export interface RecipientPreview {
  docNumber: string;
  displayName: string;
}

/** The 200 answer. */
export interface RecipientAnswer {
  success: true;
  recipient: RecipientPreview;
}
