/**
 * Info: a modal titled with the document name, showing its description and
 * the delivery receipt (SHA-256, page count, size, upload and read times) both
 * sides can check. Closes on Escape, a backdrop click or the × button.
 */
import { Alert, Descriptions, Modal, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { failureMessage } from '../lib/api.ts';
import { formatDate } from '../lib/format.ts';
import { type DocumentReceipt, fetchReceipt } from './mailApi.ts';
import { type DocumentRow, formatBytes, infoText, readText } from './listLogic.ts';

/** Spec section 2: modal sizes sm, md, lg, default md. */
export const MODAL_WIDTHS = { sm: 400, md: 560, lg: 800 } as const;

type ReceiptState =
  | { kind: 'loading' }
  | { kind: 'ready'; receipt: DocumentReceipt }
  | { kind: 'error'; message: string };

export function InfoModal(
  { row, onClose, size = 'md' }: {
    row: DocumentRow | null;
    onClose(): void;
    size?: keyof typeof MODAL_WIDTHS;
  },
) {
  const [state, setState] = useState<ReceiptState>({ kind: 'loading' });
  const documentId = row?.documentid;

  useEffect(() => {
    if (!documentId) return;
    const controller = new AbortController();
    setState({ kind: 'loading' });
    fetchReceipt(documentId, controller.signal).then(
      (receipt) => setState({ kind: 'ready', receipt }),
      (error) => {
        if (!controller.signal.aborted) {
          setState({
            kind: 'error',
            message: failureMessage(error, { failed: 'Failed to load the delivery receipt' }),
          });
        }
      },
    );
    return () => controller.abort();
  }, [documentId]);

  return (
    <Modal
      open={row !== null}
      title={row?.name}
      className='info-modal'
      onCancel={onClose}
      footer={null}
      width={MODAL_WIDTHS[size]}
      keyboard
      maskClosable
      destroyOnHidden
    >
      {row && (
        <>
          <Typography.Paragraph className='info-description'>{infoText(row)}</Typography.Paragraph>
          <Typography.Title level={3} className='info-receipt-heading'>Delivery receipt</Typography.Title>
          {state.kind === 'loading' && <Spin aria-label='Loading delivery receipt' />}
          {state.kind === 'error' && <Alert type='error' showIcon title={state.message} />}
          {state.kind === 'ready' && (
            <Descriptions column={1} size='small' bordered className='info-receipt'>
              <Descriptions.Item label='SHA-256'>
                <code className='info-sha'>{state.receipt.sha256}</code>
              </Descriptions.Item>
              <Descriptions.Item label='Pages'>
                {state.receipt.pages > 0 ? state.receipt.pages : 'Encrypted, page count unavailable'}
              </Descriptions.Item>
              <Descriptions.Item label='Size'>{formatBytes(state.receipt.size)}</Descriptions.Item>
              <Descriptions.Item label='Uploaded'>{formatDate(state.receipt.uploaded)}</Descriptions.Item>
              <Descriptions.Item label='Read'>{readText(state.receipt.viewedAt)}</Descriptions.Item>
            </Descriptions>
          )}
        </>
      )}
    </Modal>
  );
}
