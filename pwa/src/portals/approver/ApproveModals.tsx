/**
 * The approval confirmation. It says that the applicant signs in with the password they chose (approval makes no
 * temporary password) and, for a representative, which attorney account will be asked to supervise them, or that
 * none matches, before anything is decided.
 */
import { Alert, Modal, Typography } from 'antd';
import { type PendingRegistration, supervisorLabel } from './approverApi.ts';

function SupervisorNotice({ registration }: { registration: PendingRegistration }) {
  if (!registration.is_representative) return null;
  const match = registration.supervisor_match;
  if (match) {
    return (
      <Alert
        type='info'
        showIcon
        data-testid='supervisor-match'
        title={`Supervising attorney account: ${supervisorLabel(match)}`}
        description={'That attorney is asked to accept the representative in their portal. Until they accept, ' +
          'no document the representative sends is shared with them.'}
      />
    );
  }
  return (
    <Alert
      type='warning'
      showIcon
      data-testid='supervisor-match'
      title='No attorney account matches the supervising attorney details'
      description={`No active attorney has bar number ${
        registration.supervising_attorney_bar ?? '—'
      } in ${registration.bar_state} with the e-mail ${
        registration.supervising_attorney_email ?? '—'
      }. The representative will work alone: no attorney reads what they send.`}
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
  return (
    <Modal
      title='Approve Registration'
      open={registration !== null}
      okText='Approve'
      onOk={onConfirm}
      confirmLoading={busy}
      onCancel={onCancel}
      destroyOnHidden
    >
      {registration && (
        <>
          <Typography.Paragraph>
            Approve the registration of <strong>{name}</strong>{' '}
            ({registration.email})? The account is activated and the applicant signs in with the password they
            chose when registering.
          </Typography.Paragraph>
          <SupervisorNotice registration={registration} />
        </>
      )}
    </Modal>
  );
}
