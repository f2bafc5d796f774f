/** The details of one entity (spec section 2): every field, settings as formatted JSON. */
import { Descriptions, Modal, Tag } from 'antd';
import { formatDate } from '../../../lib/format.ts';
import type { Entity } from './entitiesApi.ts';
import { settingsText } from './entityForm.ts';

export const ENTITY_STATUS_COLOR: Record<string, string> = {
  active: 'green',
  inactive: 'default',
  pending: 'gold',
};

export function EntityStatusTag({ status }: { status: string }) {
  return <Tag color={ENTITY_STATUS_COLOR[status]}>{status.charAt(0).toUpperCase() + status.slice(1)}</Tag>;
}

export function EntityDetailsModal({ entity, onClose }: { entity: Entity | null; onClose(): void }) {
  return (
    <Modal
      title='Entity Details'
      open={entity !== null}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {entity && (
        <Descriptions column={1} size='small' bordered>
          <Descriptions.Item label='Name'>{entity.name}</Descriptions.Item>
          <Descriptions.Item label='Slug'>{entity.slug}</Descriptions.Item>
          <Descriptions.Item label='Status'>
            <EntityStatusTag status={entity.status} />
          </Descriptions.Item>
          <Descriptions.Item label='Users'>{entity.user_count}</Descriptions.Item>
          <Descriptions.Item label='Email'>{entity.email || 'N/A'}</Descriptions.Item>
          <Descriptions.Item label='Phone'>{entity.phone || 'N/A'}</Descriptions.Item>
          <Descriptions.Item label='Address'>{entity.address || 'N/A'}</Descriptions.Item>
          <Descriptions.Item label='Settings'>
            <pre
              style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >{settingsText(entity.settings)}</pre>
          </Descriptions.Item>
          <Descriptions.Item label='Created'>{formatDate(entity.created_at)}</Descriptions.Item>
          <Descriptions.Item label='Last Updated'>{formatDate(entity.updated_at)}</Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
