/** 'Add Offender' (DOC number, names, initial PIN) and 'Reset PIN' for an offender of the roster. */
import { Alert, Form, Input, Modal, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { PersonNameFields } from './PersonNameFields.tsx';
import type { AdminUser, OffenderRequest } from './usersApi.ts';
// The API's own rules, so the form answers before the round trip; their words are the catalogues' `users.rules`
// (in English the API's own messages, held to them by tests/checks/i18n.test.ts).
import {
  OFFENDER_RULES,
  PIN_MAX_LENGTH,
  PIN_MIN_LENGTH,
  pinProblem,
} from '../../../../../contract/rules/roster.ts';
import { useAppConfig } from '../../../components/AppConfigProvider.tsx';
import { userName } from './usersLogic.ts';

/**
 * One PIN rule, the server's, with the `pin_min_length` setting (from /api/config): the hint under the field and
 * the refusal say the same lengths.
 */
function usePinField(): { rules: Rule[]; extra: string } {
  const { pinMinLength } = useAppConfig();
  const { t } = useTranslation();
  const lengths = { min: Math.max(pinMinLength, PIN_MIN_LENGTH), max: PIN_MAX_LENGTH };
  return {
    rules: [{
      required: true,
      validator: (_rule, value: string | undefined) =>
        pinProblem(value ?? '', pinMinLength)
          ? Promise.reject(new Error(t('users.rules.pin', lengths)))
          : Promise.resolve(),
    }],
    extra: t('users.rules.pinHint', lengths),
  };
}

export function AddOffenderModal(
  props: { open: boolean; onSubmit(offender: OffenderRequest): Promise<boolean>; onCancel(): void },
) {
  const [form] = Form.useForm<OffenderRequest>();
  const [busy, setBusy] = useState(false);
  const pinField = usePinField();
  const { t } = useTranslation();

  async function submit(values: OffenderRequest) {
    setBusy(true);
    const ok = await props.onSubmit({
      docNumber: values.docNumber.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      pin: values.pin,
    });
    setBusy(false);
    if (ok) form.resetFields();
  }

  return (
    <Modal
      title={t('users.addOffender')}
      open={props.open}
      okText={t('users.addOffender')}
      cancelText={t('users.cancel')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form form={form} layout='vertical' onFinish={(values) => void submit(values)} preserve={false}>
        <Form.Item
          label={t('users.offenderForm.docNumber')}
          name='docNumber'
          htmlFor='offender-doc-number'
          rules={[{
            required: true,
            transform: (v: string) => v?.trim(),
            pattern: OFFENDER_RULES.docNumber,
            message: t('users.rules.docNumber'),
          }]}
        >
          <Input id='offender-doc-number' autoComplete='off' maxLength={32} />
        </Form.Item>
        <PersonNameFields idPrefix='offender' />
        <Form.Item
          label={t('users.offenderForm.initialPin')}
          name='pin'
          htmlFor='offender-pin'
          rules={pinField.rules}
          extra={pinField.extra}
        >
          <Input.Password id='offender-pin' inputMode='numeric' autoComplete='new-password' maxLength={12} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 'Reset PIN'. A refusal stays in the dialog, in the language shown, until the admin tries again or closes it:
 * the reason can need a step elsewhere first (an entity with no active IP range: the one-time PIN would work
 * nowhere), which a passing toast would not leave time to read.
 */
export function ResetPinModal(
  props: {
    user: AdminUser | null;
    /** Resolves to null once the PIN is reset, or to the refusal's text. */
    onSubmit(pin: string): Promise<string | null>;
    onCancel(): void;
  },
) {
  const [form] = Form.useForm<{ pin: string }>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const pinField = usePinField();
  const { t } = useTranslation();

  async function submit({ pin }: { pin: string }) {
    setBusy(true);
    setRefusal(null);
    const failed = await props.onSubmit(pin);
    setBusy(false);
    if (failed === null) form.resetFields();
    else setRefusal(failed);
  }

  function cancel() {
    setRefusal(null);
    props.onCancel();
  }

  return (
    <Modal
      title={t('users.resetPin')}
      open={props.user !== null}
      okText={t('users.resetPin')}
      cancelText={t('users.cancel')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={cancel}
      destroyOnHidden
    >
      {refusal && <Alert type='error' showIcon title={refusal} style={{ marginBottom: 16 }} />}
      {props.user && (
        <Typography.Paragraph>
          <Trans
            i18nKey='users.offenderForm.resetIntro'
            values={{ name: userName(props.user), doc: props.user.doc_number ?? '' }}
            components={{ strong: <strong /> }}
          />
        </Typography.Paragraph>
      )}
      <Form form={form} layout='vertical' onFinish={(values) => void submit(values)} preserve={false}>
        <Form.Item
          label={t('users.offenderForm.newPin')}
          name='pin'
          htmlFor='offender-new-pin'
          rules={pinField.rules}
          extra={pinField.extra}
        >
          <Input.Password
            id='offender-new-pin'
            inputMode='numeric'
            autoComplete='new-password'
            maxLength={12}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
