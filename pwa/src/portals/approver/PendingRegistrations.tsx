/**
 * 'Pending Registrations' (spec sections 2, 4, 5, 8): the table with Approve
 * and Reject, a Refresh button, and an error with Retry when loading fails.
 */
import { Button, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadedSection } from '../../components/LoadedSection.tsx';
import { useToast } from '../../components/useToast.ts';
import { failureMessage } from '../../lib/api.ts';
import { formatDate, fullName } from '../../lib/format.ts';
import {
  APPROVER_TEXTS,
  approveRegistration,
  listPendingRegistrations,
  type PendingRegistration,
  rejectRegistration,
  supervisorLabel,
} from './approverApi.ts';
import { ApproveModal } from './ApproveModals.tsx';
import { RejectModal } from './RejectModal.tsx';
import { useLoaded } from '../../lib/useLoaded.ts';
import { STACKED_TABLE, stackedColumns } from '../../components/stackedTable.ts';

/**
 * After an approval or a rejection the row, and the button that opened the modal, are gone: the focus goes to
 * the list's heading rather than to nowhere, so a keyboard or screen-reader user goes on from the list.
 */
function focusList() {
  document.getElementById('pending-registrations')?.focus();
}

function nameOf(registration: PendingRegistration): string {
  return fullName(registration.first_name, registration.last_name);
}

export function PendingRegistrations() {
  const { t } = useTranslation();
  const toast = useToast();
  const [approving, setApproving] = useState<PendingRegistration | null>(null);
  const [rejecting, setRejecting] = useState<PendingRegistration | null>(null);
  const [busy, setBusy] = useState(false);

  const { data: registrations, loading, error: loadError, reload: load } = useLoaded<PendingRegistration[]>(
    listPendingRegistrations,
    [],
    { failed: APPROVER_TEXTS.fetchFailed, error: APPROVER_TEXTS.loadFailed },
  );

  async function approve() {
    if (!approving) return;
    setBusy(true);
    try {
      const result = await approveRegistration(approving.id);
      toast.success(result.message);
      setApproving(null);
      await load();
      focusList();
    } catch (error) {
      toast.error(failureMessage(error, { failed: APPROVER_TEXTS.approveFailed }));
    } finally {
      setBusy(false);
    }
  }

  async function reject(reason: string) {
    if (!rejecting) return;
    setBusy(true);
    try {
      const message = await rejectRegistration(rejecting.id, reason);
      toast.success(message);
      setRejecting(null);
      await load();
      focusList();
    } catch (error) {
      toast.error(failureMessage(error, { failed: APPROVER_TEXTS.rejectFailed }));
    } finally {
      setBusy(false);
    }
  }

  const columns: ColumnsType<PendingRegistration> = [
    {
      title: t('approver.columns.name'),
      key: 'name',
      render: (_, row) => (
        <Space orientation='vertical' size={0}>
          <span>{nameOf(row)}</span>
          {row.is_representative && (
            <Typography.Text type='secondary'>
              <Tag>{t('approver.representative')}</Tag>
              {row.supervising_attorney_name
                ? t('approver.supervisingAttorney', { name: row.supervising_attorney_name })
                : null}
            </Typography.Text>
          )}
          {row.is_representative && (
            <Typography.Text type={row.supervisor_match ? 'secondary' : 'warning'}>
              {row.supervisor_match
                ? t('approver.accountToLink', { account: supervisorLabel(row.supervisor_match) })
                : t('approver.noMatchingAccount')}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('approver.columns.email'), dataIndex: 'email', key: 'email' },
    {
      title: t('approver.columns.bar'),
      key: 'bar',
      render: (_, row) => `${row.bar_number} (${row.bar_state})`,
    },
    {
      title: t('approver.columns.submitted'),
      dataIndex: 'created_at',
      key: 'created_at',
      render: (value: string) => formatDate(value),
    },
    {
      title: t('approver.columns.actions'),
      key: 'actions',
      render: (_, row) => (
        <Space>
          <Button
            type='primary'
            onClick={() => setApproving(row)}
            aria-label={t('approver.approveNamed', { name: nameOf(row) })}
          >
            {t('approver.approve')}
          </Button>
          <Button
            danger
            onClick={() => setRejecting(row)}
            aria-label={t('approver.rejectNamed', { name: nameOf(row) })}
          >
            {t('approver.reject')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <LoadedSection
      headingId='pending-registrations'
      title={t('approver.heading')}
      load={{ loading, error: loadError, reload: load }}
      modals={
        <>
          <ApproveModal
            registration={approving}
            name={approving ? nameOf(approving) : ''}
            busy={busy}
            onConfirm={approve}
            onCancel={() => setApproving(null)}
          />
          <RejectModal
            registration={rejecting}
            name={rejecting ? nameOf(rejecting) : ''}
            busy={busy}
            onConfirm={reject}
            onCancel={() => setRejecting(null)}
          />
        </>
      }
    >
      <Table<PendingRegistration>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(columns)}
        dataSource={registrations}
        loading={loading}
        pagination={{ hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={APPROVER_TEXTS.empty} /> }}
        scroll={{ x: true }}
      />
    </LoadedSection>
  );
}
