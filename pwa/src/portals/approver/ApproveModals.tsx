/**
 * The approval confirmation. It says that the applicant signs in with the password they chose (approval makes no
 * temporary password) and, for a representative, which attorney account will be asked to supervise them, or that
 * none matches, before anything is decided.
 */
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BoldValue } from '../../components/BoldValue.tsx';
import { type PendingRegistration, supervisorLabel } from './approverApi.ts';

function SupervisorNotice({ registration }: { registration: PendingRegistration }) {
  const { t } = useTranslation();
  if (!registration.is_representative) return null;
  const match = registration.supervisor_match;
  if (match) {
    return (
      <Alert
        type='info'
        showIcon
        data-testid='supervisor-match'
        title={t('approver.matchTitle', { account: supervisorLabel(match) })}
        description={t('approver.matchBody')}
      />
    );
  }
  return (
    <Alert
      type='warning'
      showIcon
      data-testid='supervisor-match'
      title={t('approver.noMatchTitle')}
      description={t('approver.noMatchBody', {
        bar: registration.supervising_attorney_bar ?? '—',
        state: registration.bar_state,
        email: registration.supervising_attorney_email ?? '—',
      })}
    />
  );
}

export function ApproveModal(props: {
  registration: PendingRegistration | null;
  name: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { registration, name, busy, onConfirm, onCancel } = props;
  const { t } = useTranslation();
  return (
    <Modal
      title={t('approver.approveTitle')}
      open={registration !== null}
      okText={t('approver.approve')}
      onOk={onConfirm}
      confirmLoading={busy}
      onCancel={onCancel}
      destroyOnHidden
    >
      {registration && (
        <>
          <Typography.Paragraph>
            <BoldValue
              render={(mark) => t('approver.approveBody', { name: mark, email: registration.email })}
              value={name}
            />
          </Typography.Paragraph>
          <SupervisorNotice registration={registration} />
        </>
      )}
    </Modal>
  );
}
