/** The approval confirmation, and the result that keeps the temporary password on screen until closed. */
import { Alert, Modal, Typography } from 'antd';
import { approvedMessage, type PendingRegistration } from './approverApi.ts';

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
        <Typography.Paragraph>
          Approve the registration of <strong>{name}</strong>{' '}
          ({registration.email})? An account is created with a one-time temporary password.
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

export function TemporaryPasswordModal(props: {
  approved: { name: string; temporaryPassword: string } | null;
  onClose(): void;
}) {
  const { approved, onClose } = props;
  return (
    <Modal
      title='Registration approved'
      open={approved !== null}
      onOk={onClose}
      onCancel={onClose}
      okText='Done'
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      {approved && (
        <>
          <Alert type='success' showIcon title={approvedMessage(approved.temporaryPassword)} />
          <Typography.Paragraph className='temp-password'>
            Temporary password for {approved.name}:{' '}
            <Typography.Text code copyable data-testid='temporary-password'>
              {approved.temporaryPassword}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Paragraph type='secondary'>
            Give it to the attorney through a trusted channel. It works once: they must choose their own
            password at first sign-in.
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
