/** The details of one entity (spec section 2): every field, settings as formatted JSON. */
import { Descriptions, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';
import type { Entity } from './entitiesApi.ts';
import { settingsText } from './entityForm.ts';
import { ENDONYMS } from '../../../i18n/i18n.ts';

export const ENTITY_STATUS_COLOR: Record<string, string> = {
  active: 'green',
  inactive: 'default',
  pending: 'gold',
};

/** Each status's name in the catalogues. */
const STATUS_TEXT: Record<
  string,
  'entities.statuses.active' | 'entities.statuses.inactive' | 'entities.statuses.pending'
> = {
  active: 'entities.statuses.active',
  inactive: 'entities.statuses.inactive',
  pending: 'entities.statuses.pending',
};

export function EntityStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status] : null;
  // A status from a newer API is shown as its stored word.
  return (
    <Tag color={ENTITY_STATUS_COLOR[status]}>
      {known ? t(known) : status.charAt(0).toUpperCase() + status.slice(1)}
    </Tag>
  );
}

export function EntityDetailsModal({ entity, onClose }: { entity: Entity | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('entities.details.title')}
      open={entity !== null}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {entity && (
        <Descriptions column={1} size='small' bordered>
          <Descriptions.Item label={t('entities.columns.name')}>{entity.name}</Descriptions.Item>
          <Descriptions.Item label={t('entities.columns.slug')}>{entity.slug}</Descriptions.Item>
          <Descriptions.Item label={t('entities.columns.status')}>
            <EntityStatusTag status={entity.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.columns.users')}>{entity.user_count}</Descriptions.Item>
          <Descriptions.Item label={t('entities.form.defaultLanguage')}>
            {ENDONYMS[entity.default_language] ?? ENDONYMS.en}
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.details.email')}>
            {entity.email || t('entities.details.notAvailable')}
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.details.phone')}>
            {entity.phone || t('entities.details.notAvailable')}
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.details.address')}>
            {entity.address || t('entities.details.notAvailable')}
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.details.settings')}>
            <pre
              style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >{settingsText(entity.settings)}</pre>
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.columns.created')}>
            {formatDate(entity.created_at)}
          </Descriptions.Item>
          <Descriptions.Item label={t('entities.details.lastUpdated')}>
            {formatDate(entity.updated_at)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
