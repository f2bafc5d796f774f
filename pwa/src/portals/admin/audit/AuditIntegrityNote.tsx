/**
 * Above the audit log: when it was last verified against its signed checkpoints (npm run audit:verify) and what
 * that found, and the latest checkpoint, so an admin sees at a glance whether the log still holds.
 */
import { Alert, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { type AuditIntegrity, fetchAuditIntegrity } from './auditApi.ts';

export function AuditIntegrityNote() {
  const { t } = useTranslation();
  const [integrity, setIntegrity] = useState<AuditIntegrity | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchAuditIntegrity(controller.signal).then(setIntegrity, () => {
      if (!controller.signal.aborted) setFailed(true);
    });
    return () => controller.abort();
  }, []);

  if (failed) return <Alert type='warning' showIcon title={t('audit.integrity.loadFailed')} />;
  if (!integrity) return null;
  const verification = integrity.lastVerification;
  const checkpoint = integrity.lastCheckpoint;
  const checkpointText = checkpoint
    ? t('audit.integrity.lastCheckpoint', {
      time: formatDateTime(checkpoint.signedAt),
      rows: checkpoint.size,
    })
    : t('audit.integrity.noCheckpoint');
  const title = !verification
    ? t('audit.integrity.neverVerified')
    : verification.ok
    ? t('audit.integrity.verifiedOk', {
      time: formatDateTime(verification.verifiedAt),
      rows: verification.rowsChecked,
      checkpoints: verification.checkpointsChecked,
    })
    : t('audit.integrity.verifiedFailed', {
      time: formatDateTime(verification.verifiedAt),
      message: verification.message,
    });
  return (
    <Alert
      type={!verification ? 'info' : verification.ok ? 'success' : 'error'}
      showIcon
      title={title}
      description={<Typography.Text type='secondary'>{checkpointText}</Typography.Text>}
      data-testid='audit-integrity'
    />
  );
}
