/** Rejection with a required reason: Reject stays disabled while the reason is blank (spec section 5). */
import { Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BoldValue } from '../../components/BoldValue.tsx';
import { APPROVER_TEXTS, type PendingRegistration } from './approverApi.ts';

export function RejectModal(props: {
  registration: PendingRegistration | null;
  name: string;
  busy: boolean;
  onConfirm(reason: string): void;
  onCancel(): void;
}) {
  const { registration, name, busy, onConfirm, onCancel } = props;
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    setReason('');
    setTouched(false);
  }, [registration?.id]);

  const blank = reason.trim() === '';
  const showError = touched && blank;
  return (
    <Modal
      title={t('approver.rejectTitle')}
      open={registration !== null}
      okText={t('approver.reject')}
      okButtonProps={{ danger: true, disabled: blank }}
      onOk={() => {
        if (!blank) onConfirm(reason.trim());
      }}
      confirmLoading={busy}
      onCancel={onCancel}
      destroyOnHidden
    >
      {registration && (
        <Typography.Paragraph>
          <BoldValue
            render={(mark) => t('approver.rejectBody', { name: mark, email: registration.email })}
            value={name}
          />
        </Typography.Paragraph>
      )}
      <Form layout='vertical' component='div'>
        <Form.Item
          label={t('approver.reason')}
          htmlFor='rejection-reason'
          required
          validateStatus={showError ? 'error' : undefined}
          help={showError
            ? <span id='rejection-reason-error'>{APPROVER_TEXTS.reasonRequired}</span>
            : undefined}
        >
          <Input.TextArea
            id='rejection-reason'
            value={reason}
            rows={4}
            maxLength={2000}
            aria-required
            aria-invalid={showError ? true : undefined}
            aria-describedby={showError ? 'rejection-reason-error' : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
