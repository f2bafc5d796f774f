/**
 * The confirmation before a sender withdraws a document: what will happen, Withdraw or Cancel. The browser's own
 * <dialog> as the Info dialog (focus kept inside, Escape closes), so the sender lists stay without antd. The
 * server decides (an opened or fetched-ahead document is refused with its reason, shown as a toast).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../components/useToast.ts';
import { failureMessage } from '../lib/api.ts';
import type { DocumentRow } from './listLogic.ts';
import { withdrawDocument } from './mailApi.ts';

export function WithdrawDialog(
  { row, onClose, onWithdrawn }: { row: DocumentRow; onClose(): void; onWithdrawn(): void },
) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closed = useRef(onClose);
  closed.current = onClose;
  const titleId = useId();
  const bodyId = useId();
  const toast = useToast();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    const onCloseEvent = () => closed.current();
    element.addEventListener('close', onCloseEvent);
    return () => {
      element.removeEventListener('close', onCloseEvent);
      if (element.open) element.close();
    };
  }, []);

  const confirm = async () => {
    setBusy(true);
    try {
      toast.success((await withdrawDocument(row.documentid)) || t('delivery.withdrawDone'));
      onWithdrawn();
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('delivery.withdrawFailed') }));
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };

  return (
    <dialog
      ref={dialog}
      className='info-dialog withdraw-dialog'
      role='alertdialog'
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <div className='info-dialog-content'>
        <h2 id={titleId} className='info-dialog-title'>{t('delivery.withdrawTitle')}</h2>
        <p id={bodyId}>{t('delivery.withdrawBody', { name: row.name, doc: row.offenderdocnumber })}</p>
        <div className='withdraw-dialog-actions'>
          <button type='button' className='btn' onClick={() => dialog.current?.close()} disabled={busy}>
            {t('delivery.cancel')}
          </button>
          <button type='button' className='btn btn-danger' onClick={() => void confirm()} disabled={busy}>
            {t('delivery.withdraw')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
