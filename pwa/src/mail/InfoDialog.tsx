/**
 * Info (every list with an Info button: the offender's tablet, the attorney's and representative's lists): a modal dialog titled with the document name, showing its description and the delivery
 * receipt (page count, size, upload and read times; the SHA-256 on the sender's side only) both sides can check. Closes on Escape, a tap
 * outside it or the × button. The browser's own <dialog> (showModal: focus kept inside, the page behind inert,
 * Escape), not antd's Modal: the lists' path carries no antd.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError, failureMessage } from '../lib/api.ts';
import { signedInAsOffender } from '../lib/storage.ts';
import { formatDate } from '../lib/format.ts';
import { PATHS } from '../lib/routing.ts';
import { type DocumentRow, formatBytes, infoText, readText } from './listLogic.ts';
import { type DocumentReceipt, downloadSignedReceipt, fetchReceipt } from './mailApi.ts';
import { timelineLine, timeSensitiveBadge } from './delivery.ts';

type ReceiptState =
  | { kind: 'loading' }
  | { kind: 'ready'; receipt: DocumentReceipt }
  | { kind: 'error'; message: string }
  /** No network: the receipt lives on the server only, and that is not a fault. */
  | { kind: 'offline' };

function Receipt({ receipt }: { receipt: DocumentReceipt }) {
  const { t } = useTranslation();
  // The file's SHA-256 is for the sender, who can match it against their copy; the reader is told in plain
  // words what came and when, not a 64-character fingerprint.
  const items: [string, ReactNode][] = [
    ...(signedInAsOffender() ? [] : [
      [t('info.sha256'), <code key='sha' className='info-sha'>{receipt.sha256}</code>] as [
        string,
        ReactNode,
      ],
    ]),
    [t('info.pages'), receipt.pages > 0 ? receipt.pages : t('list.encrypted')],
    [t('info.size'), formatBytes(receipt.size)],
    [t('info.uploaded'), formatDate(receipt.uploaded)],
    [t('info.read'), readText(receipt.viewedAt)],
  ];
  const badge = timeSensitiveBadge({ time_sensitive: receipt.timeSensitive, respond_by: receipt.respondBy });
  if (badge) items.push([t('delivery.timeSensitive'), badge]);
  return (
    <>
      <dl className='info-receipt'>
        {items.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {receipt.timeline.length > 0 && (
        <>
          <h3 className='info-receipt-heading'>{t('delivery.timeline')}</h3>
          {/* The recipient's own events only: never who else looked. */}
          <ol className='info-timeline'>
            {receipt.timeline.map((event) => <li key={event.event}>{timelineLine(event)}</li>)}
          </ol>
        </>
      )}
    </>
  );
}

/**
 * The sender's copy of the receipt as a file signed with the portal's audit key, which anyone can check offline
 * (`npm run receipt:verify`) or on the portal's "Check a receipt" page; the recipient's tablet has no such button.
 */
function SignedReceiptButton({ documentId }: { documentId: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = () => {
    setBusy(true);
    setFailure(null);
    downloadSignedReceipt(documentId).catch((error) =>
      setFailure(failureMessage(error, { failed: t('info.downloadSignedFailed') }))
    ).finally(() => setBusy(false));
  };
  return (
    <>
      <div className='info-signed-actions'>
        <button type='button' className='btn' disabled={busy} onClick={download}>
          {t('info.downloadSigned')}
        </button>
        {/* The portal's own check of a downloaded receipt, beside the download. */}
        <Link className='btn' to={PATHS.receiptCheck}>
          <span>{t('info.checkReceipt')}</span>
        </Link>
      </div>
      {failure && (
        <div className='alert alert-error' role='alert'>
          <span className='alert-title'>{failure}</span>
        </div>
      )}
    </>
  );
}

/** Shown while mounted; `onClose` when the user closes it. `signedReceipt`: the sender's download of it. */
export function InfoDialog(
  { row, onClose, signedReceipt = false }: { row: DocumentRow; onClose(): void; signedReceipt?: boolean },
) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closed = useRef(onClose);
  closed.current = onClose;
  const titleId = useId();
  const [state, setState] = useState<ReceiptState>({ kind: 'loading' });
  const documentId = row.documentid;
  const { t } = useTranslation();
  const sender = row.attorney || row.from;

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

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    fetchReceipt(documentId, controller.signal).then(
      (receipt) => setState({ kind: 'ready', receipt }),
      (error) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 0) setState({ kind: 'offline' });
        else {
          setState({
            kind: 'error',
            message: failureMessage(error, { failed: t('info.receiptFailed') }),
          });
        }
      },
    );
    return () => controller.abort();
  }, [documentId, t]);

  return (
    <dialog
      ref={dialog}
      className='info-dialog'
      aria-labelledby={titleId}
      // A tap on the backdrop lands on the <dialog> itself; a tap on its content lands inside it.
      onClick={(event) => event.target === event.currentTarget && event.currentTarget.close()}
    >
      <div className='info-dialog-content'>
        <div className='info-dialog-header'>
          <h2 id={titleId} className='info-dialog-title'>{row.name}</h2>
          <button
            type='button'
            className='btn btn-icon btn-text info-dialog-close'
            aria-label={t('common.close')}
            onClick={() => dialog.current?.close()}
          >
            <span aria-hidden='true'>×</span>
          </button>
        </div>
        <p className='info-description'>{infoText(row)}</p>
        {/* Who sent it and when it came, whether or not the sender wrote a description. */}
        {sender && (
          <p className='info-sent'>{t('info.sentOn', { name: sender, date: formatDate(row.date) })}</p>
        )}
        <h3 className='info-receipt-heading'>{t('info.receipt')}</h3>
        {state.kind === 'loading' && (
          // Named, not captioned (as antd's Spin was): the heading above already says 'Delivery receipt'.
          <span className='spinner' role='status' aria-label={t('info.loadingReceipt')}>
            <span className='spinner-ring' aria-hidden='true' />
          </span>
        )}
        {state.kind === 'error' && (
          <div className='alert alert-error' role='alert'>
            <span className='alert-title'>{state.message}</span>
          </div>
        )}
        {state.kind === 'offline' && (
          <div className='alert alert-warning' role='status'>
            <span className='alert-title'>{t('info.receiptOffline')}</span>
          </div>
        )}
        {state.kind === 'ready' && <Receipt receipt={state.receipt} />}
        {state.kind === 'ready' && signedReceipt && <SignedReceiptButton documentId={documentId} />}
      </div>
    </dialog>
  );
}
