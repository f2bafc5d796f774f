/**
 * Admin > IP Whitelist (spec sections 2, 4, 5, 8): the admin's entity's ranges its offenders may connect from,
 * with Add, Edit (keeps isActive), Activate/Deactivate and Delete (after a confirmation), and a line saying what
 * the whitelist admits now (an empty list is open or closed depending on the entity's history and a setting).
 */
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadedSection } from '../../../components/LoadedSection.tsx';
import { useToast } from '../../../components/useToast.ts';
import { failureMessage } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { emptyListText, lastRangeWarning, policyLine, toggleAction } from './ipRangeForm.ts';
import { IpRangeFormModal } from './IpRangeFormModal.tsx';
import {
  addIpRange,
  deleteIpRange,
  type IpRangeEntry,
  type IpRangeRequest,
  type IpWhitelist,
  listIpRanges,
  updateIpRange,
} from './ipWhitelistApi.ts';
import { useLoaded } from '../../../lib/useLoaded.ts';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

/** The form modal: closed, adding, or editing one range. */
type Editing = { open: false } | { open: true; entry: IpRangeEntry | null };

export function IpWhitelistScreen() {
  const { t } = useTranslation();
  const toast = useToast();
  const [editing, setEditing] = useState<Editing>({ open: false });
  /** The row whose toggle or delete is in flight. */
  const [busyId, setBusyId] = useState<string | null>(null);

  const { data, loading, error: loadError, reload: load } = useLoaded<IpWhitelist>(
    listIpRanges,
    { ranges: [], policy: null },
    { failed: t('ipWhitelist.fetchFailed'), error: t('ipWhitelist.loadFailed') },
  );
  const { ranges, policy } = data;
  const line = policy ? policyLine(policy) : null;

  async function save(payload: IpRangeRequest): Promise<boolean> {
    if (!editing.open) return false;
    const existing = editing.entry;
    try {
      // The API's success messages are, in English, the catalogue's texts (tests/checks/i18n.test.ts).
      if (existing) await updateIpRange(existing.id, payload);
      else await addIpRange(payload);
      toast.success(existing ? t('ipWhitelist.updated') : t('ipWhitelist.added'));
      setEditing({ open: false });
      void load();
      return true;
    } catch (error) {
      // A format the server refuses, or a range already listed (409), comes back with its own message.
      toast.error(
        failureMessage(error, {
          failed: existing ? t('ipWhitelist.updateFailed') : t('ipWhitelist.addFailed'),
        }),
      );
      return false;
    }
  }

  async function toggle(entry: IpRangeEntry) {
    const action = toggleAction(entry);
    setBusyId(entry.id);
    try {
      await updateIpRange(entry.id, { isActive: action.isActive });
      toast.success(action.done);
      await load();
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('ipWhitelist.statusFailed') }));
    } finally {
      setBusyId(null);
    }
  }

  async function remove(entry: IpRangeEntry) {
    setBusyId(entry.id);
    try {
      await deleteIpRange(entry.id);
      toast.success(t('ipWhitelist.deleted'));
      await load();
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('ipWhitelist.deleteFailed') }));
    } finally {
      setBusyId(null);
    }
  }

  const columns: ColumnsType<IpRangeEntry> = [
    {
      title: t('ipWhitelist.columns.ipRange'),
      dataIndex: 'ipRange',
      key: 'ipRange',
      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
    },
    {
      title: t('ipWhitelist.columns.description'),
      dataIndex: 'description',
      key: 'description',
      render: (value: string | null) => value ?? '',
    },
    {
      title: t('ipWhitelist.columns.status'),
      dataIndex: 'isActive',
      key: 'isActive',
      render: (active: boolean) => (
        <Tag color={active ? 'green' : 'default'}>
          {active ? t('ipWhitelist.active') : t('ipWhitelist.inactive')}
        </Tag>
      ),
    },
    {
      title: t('ipWhitelist.columns.created'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      render: (value: string) => formatDate(value),
    },
    {
      title: t('ipWhitelist.columns.actions'),
      key: 'actions',
      render: (_, entry) => {
        const action = toggleAction(entry);
        const busy = busyId === entry.id;
        const last = lastRangeWarning(entry, ranges, policy);
        const toggleButton = (
          <Button
            size='small'
            loading={busy}
            disabled={busyId !== null && !busy}
            aria-label={`${action.label} ${entry.ipRange}`}
            onClick={last ? undefined : () => void toggle(entry)}
          >
            {action.label}
          </Button>
        );
        return (
          <Space wrap size='small'>
            <Button
              size='small'
              aria-label={t('ipWhitelist.editNamed', { range: entry.ipRange })}
              onClick={() => setEditing({ open: true, entry })}
            >
              {t('ipWhitelist.edit')}
            </Button>
            {last && entry.isActive
              ? (
                <Popconfirm
                  title={`${last} ${t('ipWhitelist.confirmDeactivateLast')}`}
                  okText={action.label}
                  okButtonProps={{ danger: true }}
                  cancelText={t('ipWhitelist.cancel')}
                  onConfirm={() => toggle(entry)}
                >
                  {toggleButton}
                </Popconfirm>
              )
              : toggleButton}
            <Popconfirm
              title={last ? `${last} ${t('ipWhitelist.confirmDeleteLast')}` : t('ipWhitelist.confirmDelete')}
              okText={t('ipWhitelist.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('ipWhitelist.cancel')}
              onConfirm={() => remove(entry)}
            >
              <Button
                size='small'
                danger
                disabled={busyId !== null}
                aria-label={t('ipWhitelist.deleteNamed', { range: entry.ipRange })}
              >
                {t('ipWhitelist.delete')}
              </Button>
            </Popconfirm>
          </Space>
        );
      },
    },
  ];

  return (
    <LoadedSection
      headingId='ip-whitelist-heading'
      title={t('ipWhitelist.title')}
      load={{ loading, error: loadError, reload: load }}
      actions={
        <Button
          type='primary'
          icon={<PlusOutlined />}
          onClick={() => setEditing({ open: true, entry: null })}
        >
          {t('ipWhitelist.add')}
        </Button>
      }
      intro={
        <>
          <Typography.Paragraph type='secondary'>{t('ipWhitelist.rule')}</Typography.Paragraph>
          {line && (
            <Alert
              data-testid='ip-whitelist-policy'
              type={line.warning ? 'warning' : 'info'}
              showIcon
              title={line.text}
              style={{ marginBottom: 16 }}
            />
          )}
        </>
      }
      modals={
        <IpRangeFormModal
          open={editing.open}
          entry={editing.open ? editing.entry : null}
          onSubmit={save}
          onCancel={() => setEditing({ open: false })}
        />
      }
    >
      <Table<IpRangeEntry>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(columns)}
        dataSource={ranges}
        loading={loading}
        pagination={{ pageSize: 25, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={emptyListText(policy)} /> }}
        scroll={{ x: true }}
      />
    </LoadedSection>
  );
}
