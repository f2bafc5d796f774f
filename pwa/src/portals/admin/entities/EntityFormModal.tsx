/** 'Create New Entity' and 'Update Entity': name, slug (follows the name, spec section 4), status, contact details. */
import { Form, Input, Modal, Select } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Entity, EntityRequest } from './entitiesApi.ts';
import { ENDONYMS, LANGUAGES } from '../../../i18n/i18n.ts';
import {
  EMPTY_ENTITY_FORM,
  ENTITY_STATUSES,
  entityFormProblem,
  type EntityFormValues,
  entityPayload,
  followSlug,
  formValuesOf,
  SIGN_IN_ENTITY_SLUG,
} from './entityForm.ts';

export function EntityFormModal(props: {
  open: boolean;
  /** The entity being edited; null creates a new one. */
  entity: Entity | null;
  onSubmit(payload: EntityRequest): Promise<boolean>;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { open, entity } = props;
  const [form] = Form.useForm<EntityFormValues>();
  const [busy, setBusy] = useState(false);
  const previousName = useRef('');

  // A layout effect: the fields are set before the opened modal is painted, so nothing typed at once is lost.
  useLayoutEffect(() => {
    if (!open) return;
    const initial = entity ? formValuesOf(entity) : EMPTY_ENTITY_FORM;
    // resetFields also clears the errors left from the last time the modal was open.
    form.resetFields();
    form.setFieldsValue(initial);
    previousName.current = initial.name;
  }, [open, entity, form]);

  function onValuesChange(changed: Partial<EntityFormValues>, all: EntityFormValues) {
    if (changed.name === undefined) return;
    const slug = followSlug({
      previousName: previousName.current,
      nextName: changed.name,
      slug: all.slug ?? '',
      originalSlug: entity?.slug,
    });
    previousName.current = changed.name;
    if (slug !== all.slug) form.setFieldValue('slug', slug);
  }

  async function submit(values: EntityFormValues) {
    setBusy(true);
    await props.onSubmit(entityPayload({ ...EMPTY_ENTITY_FORM, ...values }));
    setBusy(false);
  }

  const id = (field: string) => `entity-${field}`;
  const signInEntity = entity?.slug === SIGN_IN_ENTITY_SLUG;
  return (
    <Modal
      title={entity ? t('entities.form.updateTitle') : t('entities.form.createTitle')}
      open={open}
      okText={entity ? t('entities.form.updateOk') : t('entities.form.createOk')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={props.onCancel}
      forceRender
    >
      <Form<EntityFormValues>
        form={form}
        layout='vertical'
        initialValues={EMPTY_ENTITY_FORM}
        onValuesChange={onValuesChange}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label={t('entities.columns.name')}
          name='name'
          htmlFor={id('name')}
          required
          rules={[{
            validator: (_, value: string | undefined) => {
              const problem = entityFormProblem({ name: value ?? '' });
              return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
            },
          }]}
        >
          <Input id={id('name')} maxLength={200} autoComplete='organization' />
        </Form.Item>
        <Form.Item
          label={t('entities.columns.slug')}
          name='slug'
          htmlFor={id('slug')}
          extra={signInEntity ? t('entities.form.slugFixed') : t('entities.form.slugHint')}
        >
          <Input id={id('slug')} maxLength={100} autoComplete='off' disabled={signInEntity} />
        </Form.Item>
        <Form.Item label={t('entities.columns.status')} name='status' htmlFor={id('status')}>
          <Select
            id={id('status')}
            options={ENTITY_STATUSES.map((s) => ({
              value: s,
              label: s === 'active' ? t('entities.statuses.active') : t('entities.statuses.inactive'),
            }))}
          />
        </Form.Item>
        <Form.Item
          label={t('entities.form.defaultLanguage')}
          name='default_language'
          htmlFor={id('default_language')}
          extra={t('entities.form.defaultLanguageHint')}
        >
          <Select
            id={id('default_language')}
            options={LANGUAGES.map((language) => ({ value: language, label: ENDONYMS[language] }))}
          />
        </Form.Item>
        <Form.Item label={t('entities.details.email')} name='email' htmlFor={id('email')}>
          <Input id={id('email')} type='email' autoComplete='email' maxLength={254} />
        </Form.Item>
        <Form.Item label={t('entities.details.phone')} name='phone' htmlFor={id('phone')}>
          <Input id={id('phone')} type='tel' autoComplete='tel' maxLength={40} />
        </Form.Item>
        <Form.Item label={t('entities.details.address')} name='address' htmlFor={id('address')}>
          <Input.TextArea id={id('address')} rows={2} autoComplete='street-address' maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
