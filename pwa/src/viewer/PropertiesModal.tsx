/** The viewer's Properties modal: every field of spec section 2 (see properties.ts). */
import { Alert, Descriptions, Modal, Spin } from 'antd';
import { t } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentInfo } from '../../../contract/shapes/document.ts';
import { apiRequest, failureMessage } from '../lib/api.ts';
import { PDFDateString, type PdfDocument } from './engine.ts';
import { documentProperties, type PropertyRow } from './properties.ts';

/** The two fields of the receipt the Properties modal shows. */
type FileFacts = Partial<Pick<DocumentInfo, 'file_name' | 'size'>>;

/** Fetches the document's file name and size; the PDF's own metadata comes from pdf.js. */
async function loadRows(
  pdf: PdfDocument,
  documentId: string,
): Promise<{ rows: PropertyRow[]; warning: string | null }> {
  const [meta, file] = await Promise.all([
    pdf.getMetadata(),
    apiRequest<{ data?: { document?: FileFacts } }>(`/documents/${encodeURIComponent(documentId)}/info`)
      .then((body) => ({ ok: true as const, document: body.data?.document ?? null }))
      .catch((error: unknown) => ({
        ok: false as const,
        message: failureMessage(error, { failed: t('properties.fileFailed') }),
      })),
  ]);
  const info = meta.info as Record<string, unknown>;
  const date = (value: unknown) => (typeof value === 'string' ? PDFDateString.toDateObject(value) : null);
  const rows = documentProperties({
    info,
    xmpTitle: meta.metadata?.get('dc:title') ?? null,
    creationDate: date(info.CreationDate),
    modDate: date(info.ModDate),
    pageCount: pdf.numPages,
    file: file.ok ? file.document : null,
  });
  return { rows, warning: file.ok ? null : file.message };
}

export function PropertiesModal(
  props: { open: boolean; pdf: PdfDocument | null; documentId: string; onClose(): void },
) {
  const { open, pdf, documentId, onClose } = props;
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<{ rows: PropertyRow[]; warning: string | null } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!open || !pdf) return;
    let current = true;
    setFailed(false);
    loadRows(pdf, documentId).then(
      (next) => current && setState(next),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
    // The labels and dates are made in the language shown: made again when it changes.
  }, [open, pdf, documentId, i18n.language]);

  return (
    <Modal
      open={open}
      title={t('properties.title')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('common.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      {failed
        ? <Alert type='error' showIcon title={t('properties.failed')} />
        : !state
        ? <Spin description={t('common.loading')} />
        : (
          <>
            {state.warning && (
              <Alert type='warning' showIcon title={state.warning} className='viewer-properties-warning' />
            )}
            <Descriptions
              column={1}
              size='small'
              bordered
              items={state.rows.map((row) => ({ key: row.label, label: row.label, children: row.value }))}
            />
          </>
        )}
    </Modal>
  );
}
