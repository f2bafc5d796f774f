/**
 * 'Add Staff': an admin or approver account, whose owner is e-mailed a link to set its password. A department-wide
 * administrator chooses the entity (a new entity is staffed from here) and may make admins; any other admin makes
 * approvers of their own entity, as the server allows (docs/security.md).
 */
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEPARTMENT_ENTITY_SLUG } from '../../../../../contract/rules/admin_scope.ts';
import { type Entity, listEntities } from '../entities/entitiesApi.ts';
import { PersonNameFields } from './PersonNameFields.tsx';
import type { StaffRequest } from './usersApi.ts';

export function AddStaffModal(
  props: {
    open: boolean;
    departmentAdmin: boolean;
    onSubmit(staff: StaffRequest): Promise<boolean>;
    onCancel(): void;
  },
) {
  const [form] = Form.useForm<StaffRequest>();
  const [busy, setBusy] = useState(false);
  const [entities, setEntities] = useState<Entity[]>([]);
  const { t } = useTranslation();

  useEffect(() => {
    if (!props.open || !props.departmentAdmin) return;
    const controller = new AbortController();
    // Without the list the entity stays the admin's own; the server decides either way.
    listEntities(controller.signal).then(setEntities, () => setEntities([]));
    return () => controller.abort();
  }, [props.open, props.departmentAdmin]);

  async function submit(values: StaffRequest) {
    setBusy(true);
    const ok = await props.onSubmit({
      email: values.email.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      role: values.role,
      ...(props.departmentAdmin && values.entity ? { entity: values.entity } : {}),
    });
    setBusy(false);
    if (ok) form.resetFields();
  }

  return (
    <Modal
      title={t('users.addStaff')}
      open={props.open}
      okText={t('users.addStaff')}
      cancelText={t('users.cancel')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('users.staffForm.intro')}</Typography.Paragraph>
      <Form
        form={form}
        layout='vertical'
        onFinish={(values) => void submit(values)}
        preserve={false}
        initialValues={{ role: 'approver', entity: DEPARTMENT_ENTITY_SLUG }}
      >
        <Form.Item
          label={t('users.staffForm.email')}
          name='email'
          htmlFor='staff-email'
          rules={[{ required: true, type: 'email', whitespace: true, message: t('users.rules.email') }]}
        >
          <Input id='staff-email' type='email' autoComplete='off' maxLength={254} />
        </Form.Item>
        <PersonNameFields idPrefix='staff' />
        <Form.Item
          label={t('users.staffForm.role')}
          name='role'
          htmlFor='staff-role'
          extra={props.departmentAdmin ? undefined : t('users.staffForm.approverOnly')}
        >
          <Select
            id='staff-role'
            options={[
              { value: 'approver', label: t('users.roles.approver') },
              ...(props.departmentAdmin ? [{ value: 'admin', label: t('users.roles.admin') }] : []),
            ]}
          />
        </Form.Item>
        {props.departmentAdmin && (
          <Form.Item label={t('users.staffForm.entity')} name='entity' htmlFor='staff-entity'>
            <Select
              id='staff-entity'
              showSearch
              optionFilterProp='label'
              options={(entities.length > 0
                ? entities
                : [{ slug: DEPARTMENT_ENTITY_SLUG, name: DEPARTMENT_ENTITY_SLUG } as Entity])
                .map((entity) => ({ value: entity.slug, label: entity.name }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
