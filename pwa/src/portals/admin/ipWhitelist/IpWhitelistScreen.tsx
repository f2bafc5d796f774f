/**
 * Admin > IP Whitelist (spec sections 2, 4, 5, 8): the admin's entity's ranges its offenders may connect from,
 * with Add, Edit (keeps isActive), Activate/Deactivate and Delete (after a confirmation), and a line saying what
 * the whitelist admits now (an empty list is open or closed depending on the entity's history and a setting).
 */
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { LoadedSection } from '../../../components/LoadedSection.tsx';
import { useToast } from '../../../components/useToast.ts';
import { failureMessage } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import {
  emptyListText,
  IP_WHITELIST_TEXTS,
  lastRangeWarning,
  policyLine,
  toggleAction,
} from './ipRangeForm.ts';
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

/** The form modal: closed, adding, or editing one range. */
type Editing = { open: false } | { open: true; entry: IpRangeEntry | null };

export function IpWhitelistScreen() {
  const toast = useToast();
  const [editing, setEditing] = useState<Editing>({ open: false });
  /** The row whose toggle or delete is in flight. */
  const [busyId, setBusyId] = useState<string | null>(null);

  const { data, loading, error: loadError, reload: load } = useLoaded<IpWhitelist>(
    listIpRanges,
    { ranges: [], policy: null },
    { failed: IP_WHITELIST_TEXTS.fetchFailed, error: IP_WHITELIST_TEXTS.loadFailed },
  );
  const { ranges, policy } = data;
  const line = policy ? policyLine(policy) : null;

  async function save(payload: IpRangeRequest): Promise<boolean> {
    if (!editing.open) return false;
    const existing = editing.entry;
    try {
      const message = existing ? await updateIpRange(existing.id, payload) : await addIpRange(payload);
      toast.success(message ?? (existing ? IP_WHITELIST_TEXTS.updated : IP_WHITELIST_TEXTS.added));
      setEditing({ open: false });
      void load();
      return true;
    } catch (error) {
      // A format the server refuses, or a range already listed (409), comes back with its own message.
      toast.error(
        failureMessage(error, {
          failed: existing ? IP_WHITELIST_TEXTS.updateFailed : IP_WHITELIST_TEXTS.addFailed,
        }),
      );
      return false;
    }
  }

  async function toggle(entry: IpRangeEntry) {
    const action = toggleAction(entry);
    setBusyId(entry.id);
    try {
      toast.success((await updateIpRange(entry.id, { isActive: action.isActive })) ?? action.done);
      await load();
    } catch (error) {
      toast.error(failureMessage(error, { failed: IP_WHITELIST_TEXTS.statusFailed }));
    } finally {
      setBusyId(null);
    }
  }

  async function remove(entry: IpRangeEntry) {
    setBusyId(entry.id);
    try {
      toast.success((await deleteIpRange(entry.id)) ?? IP_WHITELIST_TEXTS.deleted);
      await load();
    } catch (error) {
      toast.error(failureMessage(error, { failed: IP_WHITELIST_TEXTS.deleteFailed }));
    } finally {
      setBusyId(null);
    }
  }

  const columns: ColumnsType<IpRangeEntry> = [
    {
      title: 'IP Range',
      dataIndex: 'ipRange',
      key: 'ipRange',
      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
    },
    {
      title: 'Description',
      dataIndex: 'description',
      key: 'description',
      render: (value: string | null) => value ?? '',
    },
    {
      title: 'Status',
      dataIndex: 'isActive',
      key: 'isActive',
      render: (active: boolean) => (
        <Tag color={active ? 'green' : 'default'}>{active ? 'Active' : 'Inactive'}</Tag>
      ),
    },
    {
      title: 'Created',
      dataIndex: 'createdAt',
      key: 'createdAt',
      render: (value: string) => formatDate(value),
    },
    {
      title: 'Actions',
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
              aria-label={`Edit ${entry.ipRange}`}
              onClick={() => setEditing({ open: true, entry })}
            >
              Edit
            </Button>
            {last && entry.isActive
              ? (
                <Popconfirm
                  title={`${last} ${IP_WHITELIST_TEXTS.confirmDeactivateLast}`}
                  okText={action.label}
                  okButtonProps={{ danger: true }}
                  cancelText='Cancel'
                  onConfirm={() => toggle(entry)}
                >
                  {toggleButton}
                </Popconfirm>
              )
              : toggleButton}
            <Popconfirm
              title={last
                ? `${last} ${IP_WHITELIST_TEXTS.confirmDeleteLast}`
                : IP_WHITELIST_TEXTS.confirmDelete}
              okText='Delete'
              okButtonProps={{ danger: true }}
              cancelText='Cancel'
              onConfirm={() => remove(entry)}
            >
              <Button size='small' danger disabled={busyId !== null} aria-label={`Delete ${entry.ipRange}`}>
                Delete
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
      title={IP_WHITELIST_TEXTS.title}
      load={{ loading, error: loadError, reload: load }}
      actions={
        <Button
          type='primary'
          icon={<PlusOutlined />}
          onClick={() => setEditing({ open: true, entry: null })}
        >
          Add IP Range
        </Button>
      }
      intro={
        <>
          <Typography.Paragraph type='secondary'>{IP_WHITELIST_TEXTS.rule}</Typography.Paragraph>
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
        columns={columns}
        dataSource={ranges}
        loading={loading}
        pagination={{ pageSize: 25, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={emptyListText(policy)} /> }}
        scroll={{ x: true }}
      />
    </LoadedSection>
  );
}
