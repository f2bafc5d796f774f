/**
 * Admin > Users (spec sections 2, 4, 5, 8): search, role and status filters, 'Showing X of Y users', the table
 * with Activate / Deactivate, View Details with the user's real recent activity, and the offender roster
 * (Add Offender, Reset PIN, Import Roster). A user locked by failed sign-ins shows 'Locked until 2:41 PM' beside
 * their status, and an Unlock that lifts the lock (asked first). The search, the filters and the count are the server's, a page of
 * 50 at a time with 'Load more' (useUserPages.ts): a department has 100,000 offenders.
 */
import { TeamOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadedSection } from '../../../components/LoadedSection.tsx';
import { useToast } from '../../../components/useToast.ts';
import { failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDate, formatTimeOfDay } from '../../../lib/format.ts';
import { ImportRosterModal } from './ImportRosterModal.tsx';
import { AddOffenderModal, ResetPinModal } from './OffenderModals.tsx';
import { UserDetailsModal } from './UserDetailsModal.tsx';
import { signedInAsDepartmentAdmin } from '../departmentAdmin.ts';
import { AddStaffModal } from './AddStaffModal.tsx';
import {
  addOffender,
  addStaff,
  type AdminUser,
  type OffenderRequest,
  resetOffenderPin,
  setUserStatus,
  type StaffRequest,
  unlockUser,
} from './usersApi.ts';
import {
  applyLanguage,
  applyStatusChange,
  applyUnlock,
  contactText,
  CUSTODY_ACTIONS,
  type CustodyStatus,
  emptyUsersText,
  entityText,
  lockEnd,
  ROLE_FILTERS,
  roleText,
  showingText,
  STATUS_FILTERS,
  statusAction,
  statusFailureText,
  statusText,
  userName,
} from './usersLogic.ts';
import { useUserPages } from './useUserPages.ts';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

const STATUS_COLOR: Record<string, string> = {
  active: 'green',
  deactivated: 'red',
  pending: 'gold',
  released: 'purple',
  transferred: 'blue',
};

export function UsersScreen() {
  const toast = useToast();
  const { t } = useTranslation();
  const [changing, setChanging] = useState<string | null>(null);
  const [details, setDetails] = useState<AdminUser | null>(null);
  const [adding, setAdding] = useState(false);
  const [pinFor, setPinFor] = useState<AdminUser | null>(null);
  const [importing, setImporting] = useState(false);
  const [addingStaff, setAddingStaff] = useState(false);

  const list = useUserPages();
  const stored = storage.readUser();
  const ownId = stored.ok ? stored.user.id : null;
  const { filters, setFilters, page, reload: load } = list;

  async function changeStatus(user: AdminUser, next: 'active' | 'deactivated') {
    setChanging(user.id);
    try {
      // The catalogue's text in the language shown (in English, the API's message verbatim: tests/checks).
      await setUserStatus(user.id, next);
      toast.success(next === 'active' ? t('users.activated') : t('users.deactivated'));
      list.setPage((previous) => applyStatusChange(previous, { id: user.id, status: next }, list.applied));
    } catch (error) {
      const reason = failureMessage(error, { failed: '' });
      toast.error(statusFailureText(next, reason));
    } finally {
      setChanging(null);
    }
  }

  /** Marks an offender released or transferred (signed out, no more mail, documents purged later). */
  async function changeCustody(user: AdminUser, next: CustodyStatus) {
    setChanging(user.id);
    try {
      await setUserStatus(user.id, next);
      toast.success(t(next === 'released' ? 'custody.releasedDone' : 'custody.transferredDone'));
      list.setPage((previous) => applyStatusChange(previous, { id: user.id, status: next }, list.applied));
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('custody.failed') }));
    } finally {
      setChanging(null);
    }
  }

  /** Lifts the lock of failed sign-ins: the user may sign in again at once. */
  async function unlock(user: AdminUser) {
    setChanging(user.id);
    try {
      await unlockUser(user.id);
      toast.success(t('users.unlocked'));
      list.setPage((previous) => applyUnlock(previous, user.id));
      setDetails((open) => (open?.id === user.id ? { ...open, locked_until: null } : open));
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('users.unlockFailed') }));
    } finally {
      setChanging(null);
    }
  }

  async function submitOffender(offender: OffenderRequest): Promise<boolean> {
    try {
      await addOffender(offender);
      toast.success(t('users.offenderAdded'));
      setAdding(false);
      void load();
      return true;
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('users.addOffenderFailed') }));
      return false;
    }
  }

  async function submitStaff(staff: StaffRequest): Promise<boolean> {
    try {
      await addStaff(staff);
      toast.success(t('users.staffCreated'));
      setAddingStaff(false);
      void load();
      return true;
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('users.addStaffFailed') }));
      return false;
    }
  }

  async function submitPin(pin: string): Promise<string | null> {
    if (!pinFor) return t('users.pinResetFailed');
    try {
      await resetOffenderPin(pinFor.id, pin);
      toast.success(t('users.pinReset'));
      setPinFor(null);
      return null;
    } catch (error) {
      return failureMessage(error, { failed: t('users.pinResetFailed') });
    }
  }

  const columns: ColumnsType<AdminUser> = [
    { title: t('users.columns.name'), key: 'name', render: (_, user) => userName(user) },
    { title: t('users.columns.email'), key: 'email', render: (_, user) => contactText(user) },
    {
      title: t('users.columns.role'),
      dataIndex: 'role',
      key: 'role',
      render: (role: string) => roleText(role),
    },
    {
      title: t('users.columns.entity'),
      dataIndex: 'entity_name',
      key: 'entity',
      render: (name: string | null) => entityText(name),
    },
    {
      title: t('users.columns.status'),
      dataIndex: 'status',
      key: 'status',
      render: (status: string, user) => {
        const locked = lockEnd(user);
        return (
          <Space wrap size={4}>
            <Tag color={STATUS_COLOR[status]}>{statusText(status)}</Tag>
            {locked && <Tag color='orange'>{t('users.lockedUntil', { time: formatTimeOfDay(locked) })}</Tag>}
          </Space>
        );
      },
    },
    {
      title: t('users.columns.created'),
      dataIndex: 'created_at',
      key: 'created_at',
      render: (value: string) => formatDate(value),
    },
    {
      title: t('users.columns.actions'),
      key: 'actions',
      render: (_, user) => {
        const action = statusAction(user.status, user.id === ownId);
        const name = userName(user);
        const label = action ? t(action.labelKey) : '';
        const statusButton = action && (
          <Button
            size='small'
            danger={action.next === 'deactivated'}
            loading={changing === user.id}
            aria-label={t('users.actionNamed', { action: label, name })}
            onClick={action.next === 'active' ? () => void changeStatus(user, action.next) : undefined}
          >
            {label}
          </Button>
        );
        return (
          <Space wrap size='small'>
            {action?.next === 'deactivated'
              ? (
                // Deactivating ends every session of the user at once: asked first.
                <Popconfirm
                  title={t('users.confirmAction', { action: label, name })}
                  description={t('users.deactivateConsequence')}
                  okText={label}
                  okButtonProps={{ danger: true }}
                  cancelText={t('users.cancel')}
                  onConfirm={() => changeStatus(user, action.next)}
                >
                  {statusButton}
                </Popconfirm>
              )
              : statusButton ?? <Typography.Text type='secondary'>{t('users.notApplicable')}
              </Typography.Text>}
            {lockEnd(user) && (
              <Popconfirm
                title={t('users.confirmUnlock', { name })}
                description={t('users.unlockConsequence')}
                okText={t('users.unlock')}
                cancelText={t('users.cancel')}
                onConfirm={() => unlock(user)}
              >
                <Button
                  size='small'
                  loading={changing === user.id}
                  aria-label={t('users.unlockNamed', { name })}
                >
                  {t('users.unlock')}
                </Button>
              </Popconfirm>
            )}
            <Button
              size='small'
              aria-label={t('users.viewDetailsNamed', { name })}
              onClick={() => setDetails(user)}
            >
              {t('users.viewDetails')}
            </Button>
            {user.role === 'offender' && (
              <Button
                size='small'
                aria-label={t('users.resetPinNamed', { name })}
                onClick={() => setPinFor(user)}
              >
                {t('users.resetPin')}
              </Button>
            )}
            {user.role === 'offender' && user.status === 'active' && CUSTODY_ACTIONS.map((next) => (
              <Popconfirm
                key={next}
                title={t(next === 'released' ? 'custody.confirmReleased' : 'custody.confirmTransferred', {
                  name,
                })}
                description={t('custody.consequence')}
                okText={t(next === 'released' ? 'custody.markReleased' : 'custody.markTransferred')}
                cancelText={t('custody.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => changeCustody(user, next)}
              >
                <Button
                  size='small'
                  loading={changing === user.id}
                  aria-label={t(
                    next === 'released' ? 'custody.markReleasedNamed' : 'custody.markTransferredNamed',
                    {
                      name,
                    },
                  )}
                >
                  {t(next === 'released' ? 'custody.markReleased' : 'custody.markTransferred')}
                </Button>
              </Popconfirm>
            ))}
          </Space>
        );
      },
    },
  ];

  return (
    <LoadedSection
      headingId='users-heading'
      title={t('users.title')}
      load={{ loading: list.loading, error: list.error, reload: load }}
      errorStyle={{ marginTop: 16 }}
      actions={
        <>
          <Button icon={<UserAddOutlined />} onClick={() => setAdding(true)}>{t('users.addOffender')}</Button>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {t('users.importRoster')}
          </Button>
          <Button icon={<TeamOutlined />} onClick={() => setAddingStaff(true)}>{t('users.addStaff')}</Button>
        </>
      }
      intro={
        <Form layout='vertical' component='div'>
          <Space wrap align='end' size='middle'>
            <Form.Item label={t('users.search')} htmlFor='users-search' style={{ marginBottom: 0 }}>
              <Input
                id='users-search'
                allowClear
                placeholder={t('users.searchPlaceholder')}
                style={{ minWidth: 260 }}
                value={filters.search}
                onChange={(event) => setFilters({ ...filters, search: event.target.value })}
              />
            </Form.Item>
            <Form.Item label={t('users.roleFilter')} htmlFor='users-role' style={{ marginBottom: 0 }}>
              <Select
                id='users-role'
                style={{ minWidth: 170 }}
                value={filters.role}
                onChange={(role) => setFilters({ ...filters, role })}
                options={ROLE_FILTERS.map((role) => ({
                  value: role,
                  label: role === 'all' ? t('users.allRoles') : roleText(role),
                }))}
              />
            </Form.Item>
            <Form.Item label={t('users.statusFilter')} htmlFor='users-status' style={{ marginBottom: 0 }}>
              <Select
                id='users-status'
                style={{ minWidth: 170 }}
                value={filters.status}
                onChange={(status) => setFilters({ ...filters, status })}
                options={STATUS_FILTERS.map((s) => ({
                  value: s,
                  label: s === 'all' ? t('users.allStatuses') : statusText(s),
                }))}
              />
            </Form.Item>
          </Space>
        </Form>
      }
      modals={
        <>
          <UserDetailsModal
            user={details}
            onClose={() => setDetails(null)}
            onLanguageSaved={(id, language) =>
              list.setPage((previous) => applyLanguage(previous, id, language))}
            onUnlock={unlock}
            unlocking={details !== null && changing === details.id}
          />
          <AddOffenderModal open={adding} onSubmit={submitOffender} onCancel={() => setAdding(false)} />
          <AddStaffModal
            open={addingStaff}
            departmentAdmin={signedInAsDepartmentAdmin()}
            onSubmit={submitStaff}
            onCancel={() => setAddingStaff(false)}
          />
          <ResetPinModal user={pinFor} onSubmit={submitPin} onCancel={() => setPinFor(null)} />
          <ImportRosterModal
            open={importing}
            onClose={(imported) => {
              setImporting(false);
              if (imported) void load();
            }}
          />
        </>
      }
    >
      <Typography.Paragraph style={{ margin: '16px 0 8px' }} aria-live='polite'>
        {showingText(page.users.length, page.total)}
      </Typography.Paragraph>
      <Table<AdminUser>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(columns)}
        dataSource={page.users}
        loading={list.loading}
        pagination={false}
        locale={{ emptyText: <Empty description={emptyUsersText(list.applied)} /> }}
        scroll={{ x: true }}
      />
      {list.moreError && <Alert style={{ marginTop: 16 }} type='error' showIcon title={list.moreError} />}
      {page.nextCursor && (
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Button loading={list.loadingMore} disabled={list.loading} onClick={() => void list.loadMore()}>
            {t('users.loadMore')}
          </Button>
        </div>
      )}
    </LoadedSection>
  );
}
