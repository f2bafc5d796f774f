/**
 * /receipts/check: "Check a receipt". A staff user (the sender who downloaded a signed delivery receipt, or the
 * department's staff shown one) chooses the file; the portal checks it against its own audit key, as
 * `npm run receipt:verify` does offline, and says whether it verifies, what it says (document, SHA-256, pages,
 * recipient) and which of its events the enclosed signed checkpoint covers. Reached from the Info dialog's
 * "Check a receipt" link. Inside the antd shell (App.tsx) for antd's Upload.
 */
import { Alert, Button, Form } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FilePicker } from '../components/FilePicker.tsx';
import { PortalHeader } from '../components/PortalHeader.tsx';
import { PortalLayout } from '../components/PortalLayout.tsx';
import { useLogOff } from '../components/useLogOff.ts';
import { failureMessage } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';
import { homeForRole } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import {
  RECEIPT_FILE_MAX_CHARS,
  type ReceiptCheckResult,
  type ReceiptFailure,
  type ReceiptValid,
} from '../../../contract/shapes/receipt.ts';
import { checkReceiptFile } from './mailApi.ts';
import './mail.css';

/** Why a receipt does not verify, in the language shown. */
const FAILURE_KEYS = {
  not_json: 'receiptCheck.reasons.not_json',
  not_a_receipt: 'receiptCheck.reasons.not_a_receipt',
  changed: 'receiptCheck.reasons.changed',
  other_key: 'receiptCheck.reasons.other_key',
  bad_signature: 'receiptCheck.reasons.bad_signature',
} as const satisfies Record<ReceiptFailure, string>;

/** The audit events a receipt proves delivery with (api/domain/receipts.ts RECEIPT_EVENTS). */
const EVENT_KEYS = {
  document_uploaded: 'receiptCheck.events.document_uploaded',
  document_shown: 'receiptCheck.events.document_shown',
  document_viewed: 'receiptCheck.events.document_viewed',
  document_printed: 'receiptCheck.events.document_printed',
} as const;

const isReceiptEvent = (event: string): event is keyof typeof EVENT_KEYS => Object.hasOwn(EVENT_KEYS, event);

/** A file larger than this many bytes cannot hold RECEIPT_FILE_MAX_CHARS characters (UTF-8: at most 4 each). */
const MAX_FILE_BYTES = RECEIPT_FILE_MAX_CHARS * 4;

function Verified({ result }: { result: ReceiptValid }) {
  const { t } = useTranslation();
  const d = result.document;
  const checkpoint = result.checkpoint;
  const items: [string, ReactNode][] = [
    [t('receiptCheck.document'), d.name],
    [t('receiptCheck.recipient'), d.to],
    [t('info.sha256'), <code key='sha' className='info-sha'>{d.sha256}</code>],
    [t('info.pages'), d.pages],
    [t('receiptCheck.issued'), formatDateTime(result.issuedAt)],
    [t('receiptCheck.key'), <code key='key'>{result.keyFingerprint}</code>],
    [
      t('receiptCheck.checkpoint'),
      checkpoint === null
        ? t('receiptCheck.noCheckpoint')
        : checkpoint.holds
        ? t('receiptCheck.checkpointHolds', {
          date: formatDateTime(checkpoint.signedAt),
          count: checkpoint.size,
        })
        : t('receiptCheck.checkpointBroken', { date: formatDateTime(checkpoint.signedAt) }),
    ],
  ];
  return (
    <section aria-labelledby='receipt-check-result' className='security-section'>
      <h3 id='receipt-check-result'>{t('receiptCheck.verified')}</h3>
      <dl className='info-receipt'>
        {items.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h4>{t('receiptCheck.eventsHeading')}</h4>
      <ul>
        {result.events.map((e) => (
          <li key={e.auditId}>
            {t('receiptCheck.eventLine', {
              event: isReceiptEvent(e.event) ? t(EVENT_KEYS[e.event]) : e.event,
              time: formatDateTime(e.at),
            })} <strong>{e.covered ? t('receiptCheck.covered') : t('receiptCheck.notCovered')}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ReceiptCheck() {
  const { t } = useTranslation();
  const stored = storage.readUser();
  const role = stored.ok ? stored.user.role : null;
  const logOff = useLogOff(role === 'admin' || role === 'representative' ? 'to-login' : 'logout-screen');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ReceiptCheckResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pick = (picked: File) => {
    setFile(picked);
    setResult(null);
    setError(null);
  };
  const check = async () => {
    if (!file) return;
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      const content = file.size > MAX_FILE_BYTES ? null : await file.text();
      if (content === null || content.length > RECEIPT_FILE_MAX_CHARS) setError(t('receiptCheck.tooLarge'));
      else setResult(await checkReceiptFile(content));
    } catch (failure) {
      setError(failureMessage(failure, { failed: t('receiptCheck.failed') }));
    } finally {
      setBusy(false);
    }
  };
  const back = (
    <Link className='btn' to={homeForRole(role)}>
      <span>{t('security.back')}</span>
    </Link>
  );

  return (
    <PortalLayout
      header={<PortalHeader subtitle={t('receiptCheck.heading')} actions={back} onLogOff={logOff} />}
    >
      <div className='security-screen'>
        <h2 className='security-title'>{t('receiptCheck.heading')}</h2>
        <p id='receipt-check-intro'>{t('receiptCheck.intro')}</p>
        <Form layout='vertical' onFinish={check}>
          <Form.Item label={t('receiptCheck.file')} htmlFor='receipt-check-file'>
            <FilePicker
              id='receipt-check-file'
              accept='.json,application/json'
              file={file}
              onPick={pick}
              chooseLabel={t('receiptCheck.choose')}
              noneLabel={t('receiptCheck.none')}
              disabled={busy}
              describedBy='receipt-check-intro'
            />
          </Form.Item>
          <Button type='primary' htmlType='submit' disabled={!file} loading={busy}>
            {t('receiptCheck.check')}
          </Button>
        </Form>
        <div aria-live='polite'>
          {error && <Alert type='error' showIcon title={error} />}
          {result && !result.valid && (
            <Alert
              type='error'
              showIcon
              title={t('receiptCheck.notVerified')}
              description={t(FAILURE_KEYS[result.reasonCode] ?? 'receiptCheck.reasons.not_a_receipt')}
            />
          )}
        </div>
        {result?.valid && (
          <>
            <Alert type='success' showIcon title={t('receiptCheck.verifiedSummary')} />
            <Verified result={result} />
          </>
        )}
      </div>
    </PortalLayout>
  );
}
