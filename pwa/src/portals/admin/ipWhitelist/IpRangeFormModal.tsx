/** 'Add IP Range' and 'Edit IP Range': the range (checked by the server's own parser) and a description. */
import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IpRangeEntry, IpRangeRequest } from './ipWhitelistApi.ts';
import {
  DESCRIPTION_MAX,
  EMPTY_IP_RANGE_FORM,
  formValuesOf,
  type IpRangeFormValues,
  ipRangePayload,
  ipRangeProblem,
} from './ipRangeForm.ts';

export function IpRangeFormModal(props: {
  open: boolean;
  /** The range being edited; null adds a new one. */
  entry: IpRangeEntry | null;
  onSubmit(payload: IpRangeRequest): Promise<boolean>;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { open, entry } = props;
  const [form] = Form.useForm<IpRangeFormValues>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    // resetFields also clears the errors left from the last time the modal was open.
    form.resetFields();
    form.setFieldsValue(entry ? formValuesOf(entry) : EMPTY_IP_RANGE_FORM);
  }, [open, entry, form]);

  async function submit(values: IpRangeFormValues) {
    setBusy(true);
    try {
      await props.onSubmit(ipRangePayload({ ...EMPTY_IP_RANGE_FORM, ...values }, entry));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={entry ? t('ipWhitelist.form.editTitle') : t('ipWhitelist.form.addTitle')}
      open={open}
      okText={entry ? t('ipWhitelist.form.editOk') : t('ipWhitelist.form.addOk')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={props.onCancel}
      forceRender
    >
      <Form<IpRangeFormValues>
        form={form}
        layout='vertical'
        initialValues={EMPTY_IP_RANGE_FORM}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label={t('ipWhitelist.form.ipRange')}
          name='ipRange'
          htmlFor='ip-range-value'
          required
          extra={t('ipWhitelist.formats')}
          validateTrigger='onSubmit'
          rules={[{
            validator: (_, value: string | undefined) => {
              const problem = ipRangeProblem(value);
              return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
            },
          }]}
        >
          <Input
            id='ip-range-value'
            placeholder='192.168.1.0/24'
            maxLength={100}
            autoComplete='off'
            spellCheck={false}
          />
        </Form.Item>
        <Form.Item
          label={t('ipWhitelist.form.description')}
          name='description'
          htmlFor='ip-range-description'
        >
          <Input
            id='ip-range-description'
            placeholder={t('ipWhitelist.form.descriptionPlaceholder')}
            maxLength={DESCRIPTION_MAX}
            autoComplete='off'
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
