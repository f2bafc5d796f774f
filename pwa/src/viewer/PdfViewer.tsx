/**
 * /pdfViewer/:documentId (spec section 2, "PDF viewer"): 'Loading document...',
 * then the toolbar and the document, or 'Error: ' with the reason. A PDF that
 * needs a password asks for it. With ?print=1 the bytes come from the print
 * URL (or, when the PDF forbids printing, the view URL) and the print flow
 * starts by itself once the document is ready.
 */
import { CloseOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Progress, Spin, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { PasswordPrompt } from './PasswordPrompt.tsx';
import { PrintDialogs } from './PrintDialogs.tsx';
import { PropertiesModal } from './PropertiesModal.tsx';
import { shortcutAction } from './shortcuts.ts';
import { Toolbar } from './Toolbar.tsx';
import { usePrint } from './usePrint.ts';
import { useSessionEndClose } from './useSessionEndClose.ts';
import { useViewer } from './useViewer.ts';
import { useReaderActivity } from './useReaderActivity.ts';
import { closeViewerWindow, useEscapeToClose } from './useViewerExit.ts';
import './viewer.css';

/** Read aloud's code is fetched the first time a reader asks for it: most readers never do. */
const ReadAloudPanel = lazy(() => import('./readAloud/ReadAloudPanel.tsx'));

/** The viewer's labelled way back (and Escape's): see useViewerExit.ts. */
function CloseButton({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Button className='viewer-close' icon={<CloseOutlined aria-hidden />} onClick={onClose}>
      {t('common.close')}
    </Button>
  );
}

/**
 * `onClose` is where Close and Escape lead: by default the pop-up closes (or, when it cannot, goes to the
 * portal); the viewer inside the offender's portal goes back to the list.
 */
export function PdfViewer({ documentId: given, onClose }: { documentId?: string; onClose?(): void }) {
  useSessionEndClose();
  const params = useParams();
  const { t } = useTranslation();
  const documentId = given ?? params.documentId ?? params.fileUrl;
  const close = useCallback(() => (onClose ?? (() => closeViewerWindow(documentId)))(), [
    onClose,
    documentId,
  ]);
  if (!documentId) {
    return (
      <main className='viewer viewer-message'>
        <Alert type='error' title={t('viewer.noId')} showIcon action={<CloseButton onClose={close} />} />
      </main>
    );
  }
  return <DocumentViewer documentId={documentId} onClose={close} />;
}

function DocumentViewer({ documentId, onClose }: { documentId: string; onClose(): void }) {
  const [search] = useSearchParams();
  const autoPrint = search.get('print') === '1';
  const containerRef = useRef<HTMLDivElement>(null);
  const { t } = useTranslation();
  const { status, view, commands } = useViewer(containerRef, documentId, autoPrint);
  const pdf = status.kind === 'ready' ? status.pdf : null;
  const fromCache = status.kind === 'ready' && status.origin === 'cache';
  const fromPrintUrl = status.kind === 'ready' && status.fromPrintUrl;
  const print = usePrint(pdf, { documentId, fromPrintUrl, fromCache });
  useReaderActivity();
  const [propertiesOpen, setPropertiesOpen] = useState(false);
  const [readAloudOpen, setReadAloudOpen] = useState(false);
  useEscapeToClose(onClose, propertiesOpen || print.phase.kind !== 'inactive');

  // ?print=1: the permission check and printing of every page, once per document.
  const autoPrinted = useRef<unknown>(null);
  useEffect(() => {
    if (!autoPrint || !pdf || autoPrinted.current === pdf) return;
    autoPrinted.current = pdf;
    print.start({ auto: true });
  }, [autoPrint, pdf, print]);

  const commandsRef = useRef(commands);
  commandsRef.current = commands;
  const printRef = useRef(print);
  printRef.current = print;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = shortcutAction(event);
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      if (!pdf) return;
      if (action === 'print' && printRef.current.phase.kind === 'inactive') printRef.current.start();
      if (action === 'zoom-in') commandsRef.current.zoomBy(1);
      if (action === 'zoom-out') commandsRef.current.zoomBy(-1);
      if (action === 'zoom-reset') commandsRef.current.setZoom('1');
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [pdf]);

  return (
    <main
      className='viewer viewer-screen'
      data-rotation={view.rotation}
      data-scroll-mode={view.layout.scroll}
      data-view-mode={view.layout.view}
      data-scale={view.scale}
    >
      {status.kind === 'ready'
        ? (
          <Toolbar
            view={view}
            commands={commands}
            onProperties={() => setPropertiesOpen(true)}
            onPrint={() => print.start()}
            // The bar has no Close of its own (one Close in the viewer, the toolbar's): Read aloud, shown pressed
            // while the bar is open, closes it again.
            readAloud={{ open: readAloudOpen, toggle: () => setReadAloudOpen((open) => !open) }}
            closeButton={<CloseButton onClose={onClose} />}
          />
        )
        : (
          <Flex className='viewer-toolbar' justify='flex-end'>
            <CloseButton onClose={onClose} />
          </Flex>
        )}
      {pdf && readAloudOpen && (
        <Suspense fallback={null}>
          <ReadAloudPanel
            key={documentId}
            pdf={pdf}
            startPage={view.page}
            showPage={commands.goToPage}
          />
        </Suspense>
      )}
      {status.kind === 'loading' && (
        <Flex vertical align='center' gap={12} role='status' className='viewer-status'>
          <Spin size='large' />
          <Typography.Text>{t('viewer.loading')}</Typography.Text>
          {status.received !== null && (
            <Progress
              percent={Math.floor(status.received * 100)}
              className='viewer-progress'
              aria-label={t('viewer.downloaded')}
            />
          )}
        </Flex>
      )}
      {status.kind === 'password' && (
        <div className='viewer-status'>
          <PasswordPrompt wrong={status.wrong} onSubmit={status.submit} />
        </div>
      )}
      {status.kind === 'unavailable' && (
        <div className='viewer-status'>
          <Alert
            type='warning'
            role='alert'
            title={t('viewer.notOffline')}
            description={t('viewer.notSaved')}
            showIcon
          />
        </div>
      )}
      {status.kind === 'error' && (
        <div className='viewer-status'>
          <Alert type='error' role='alert' title={t('viewer.error', { message: status.message })} showIcon />
        </div>
      )}
      <div className='viewer-stage' hidden={status.kind === 'error' || status.kind === 'unavailable'}>
        <div ref={containerRef} className='viewer-container' tabIndex={0} aria-label={t('viewer.pages')}>
          <div className='pdfViewer' />
        </div>
      </div>
      <PropertiesModal
        open={propertiesOpen}
        pdf={pdf}
        documentId={documentId}
        onClose={() => setPropertiesOpen(false)}
      />
      <PrintDialogs pageCount={view.pageCount} flow={print} />
    </main>
  );
}
