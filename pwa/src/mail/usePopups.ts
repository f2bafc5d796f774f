/** View and Print of a row, with the spec's toasts. */
import { useMemo } from 'react';
import { useToast } from '../components/useToast.ts';
import type { DocumentRow } from './listLogic.ts';
import { openPrintPopup, openViewerPopup } from './popups.ts';

export function usePopups(): { view(row: DocumentRow): void; print(row: DocumentRow): void } {
  const toast = useToast();
  return useMemo(() => ({
    view: (row) => openViewerPopup(row.documentid, toast),
    print: (row) => openPrintPopup(row.documentid, toast),
  }), [toast]);
}
