/**
 * Admin > Entities (spec sections 2, 4, 5, 8): the table, a details modal on row click, and the create and
 * update modals, both saved on the server.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadedSection } from '../../../components/LoadedSection.tsx';
import { useToast } from '../../../components/useToast.ts';
import { failureMessage } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { createEntity, type Entity, type EntityRequest, listEntities, updateEntity } from './entitiesApi.ts';
import { EntityDetailsModal, EntityStatusTag } from './EntityDetailsModal.tsx';
import { EntityFormModal } from './EntityFormModal.tsx';
import { useLoaded } from '../../../lib/useLoaded.ts';
import { signedInAsDepartmentAdmin } from '../departmentAdmin.ts';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

/** The form modal: closed, creating, or editing one entity. */
type Editing = { open: false } | { open: true; entity: Entity | null };

export function EntitiesScreen() {
  const { t } = useTranslation();
  const toast = useToast();
  const [details, setDetails] = useState<Entity | null>(null);
  const [editing, setEditing] = useState<Editing>({ open: false });

  const { data: entities, loading, error: loadError, reload: load } = useLoaded<Entity[]>(listEntities, [], {
    failed: t('entities.fetchFailed'),
    error: t('entities.loadFailed'),
  });

  async function save(payload: EntityRequest): Promise<boolean> {
    if (!editing.open) return false;
    const existing = editing.entity;
    try {
      // The API's success messages are, in English, the catalogue's texts (tests/checks/i18n.test.ts).
      if (existing) await updateEntity(existing.id, payload);
      else await createEntity(payload);
      toast.success(existing ? t('entities.updated') : t('entities.created'));
      setEditing({ open: false });
      void load();
      return true;
    } catch (error) {
      // A taken slug answers 409 with its own message, shown as it is.
      toast.error(
        failureMessage(error, { failed: existing ? t('entities.updateFailed') : t('entities.createFailed') }),
      );
      return false;
    }
  }

  const columns: ColumnsType<Entity> = [
    {
      title: t('entities.columns.name'),
      dataIndex: 'name',
      key: 'name',
      // The row opens the details on click; the name is the same action for keyboard and screen-reader users.
      render: (name: string, entity) => (
        <Button
          type='link'
          style={{ padding: 0 }}
          aria-label={t('entities.detailsOf', { name })}
          onClick={(event) => {
            event.stopPropagation();
            setDetails(entity);
          }}
        >
          {name}
        </Button>
      ),
    },
    { title: t('entities.columns.slug'), dataIndex: 'slug', key: 'slug' },
    {
      title: t('entities.columns.status'),
      dataIndex: 'status',
      key: 'status',
      render: (status: string) => <EntityStatusTag status={status} />,
    },
    { title: t('entities.columns.users'), dataIndex: 'user_count', key: 'user_count' },
    {
      title: t('entities.columns.created'),
      dataIndex: 'created_at',
      key: 'created_at',
      render: (value: string) => formatDate(value),
    },
    {
      title: t('entities.columns.edit'),
      key: 'edit',
      render: (_, entity) => (
        <Button
          size='small'
          aria-label={t('entities.editNamed', { name: entity.name })}
          onClick={(event) => {
            event.stopPropagation();
            setEditing({ open: true, entity });
          }}
        >
          {t('entities.edit')}
        </Button>
      ),
    },
  ];

  return (
    <LoadedSection
      headingId='entities-heading'
      title={t('entities.title')}
      load={{ loading, error: loadError, reload: load }}
      actions={
        // Only the department's administrators create entities; any other admin sees and edits their own.
        signedInAsDepartmentAdmin() && (
          <Button
            type='primary'
            icon={<PlusOutlined />}
            onClick={() => setEditing({ open: true, entity: null })}
          >
            {t('entities.create')}
          </Button>
        )
      }
      modals={
        <>
          <EntityDetailsModal entity={details} onClose={() => setDetails(null)} />
          <EntityFormModal
            open={editing.open}
            entity={editing.open ? editing.entity : null}
            onSubmit={save}
            onCancel={() => setEditing({ open: false })}
          />
        </>
      }
    >
      <Table<Entity>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(columns)}
        dataSource={entities}
        loading={loading}
        pagination={{ pageSize: 25, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('entities.empty')} /> }}
        onRow={(entity) => ({ onClick: () => setDetails(entity), style: { cursor: 'pointer' } })}
        scroll={{ x: true }}
      />
    </LoadedSection>
  );
}
