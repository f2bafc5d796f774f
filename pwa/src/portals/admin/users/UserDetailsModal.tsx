/**
 * View Details: the user's basic information and their last 10 real audit events ('Recent Activity (Last 10
 * Events)'), and for another staff user 'Reset second factors' (their passkeys, security keys, authenticator apps
 * and recovery codes go; they are e-mailed, and add a factor again at their next sign-in if their role must).
 * An account locked by failed sign-ins shows 'Locked until 2:41 PM' as its status (it cannot sign in, so it is not
 * shown as Active), with the same audited Unlock as its row in Users, asked first.
 */
import { Alert, Button, Descriptions, List, Modal, Popconfirm, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDate, formatDateTime, formatTimeOfDay } from '../../../lib/format.ts';
import { eventDisplayName } from '../audit/eventNames.ts';
import { type ActivityEvent, type AdminUser, fetchUserActivity, resetSecondFactors } from './usersApi.ts';
import { entityText, lockEnd, roleText, statusText, userName } from './usersLogic.ts';
import { UserLanguageField } from './UserLanguageField.tsx';

export function UserDetailsModal(
  { user, onClose, onLanguageSaved, onUnlock, unlocking }: {
    user: AdminUser | null;
    onClose(): void;
    onLanguageSaved(id: string, language: AdminUser['language']): void;
    /** Lifts the user's lock (the Users screen's Unlock); resolves once the screen shows it lifted. */
    onUnlock(user: AdminUser): Promise<void>;
    unlocking: boolean;
  },
) {
  const [events, setEvents] = useState<ActivityEvent[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation();
  const [reset, setReset] = useState<{ ok: boolean; text: string } | null>(null);
  const stored = storage.readUser();
  const own = stored.ok && user !== null && stored.user.id === user.id;

  useEffect(() => {
    setReset(null);
  }, [user]);

  async function resetFactors() {
    if (!user) return;
    try {
      await resetSecondFactors(user.id);
      setReset({ ok: true, text: t('adminMfa.done') });
    } catch (cause) {
      setReset({ ok: false, text: failureMessage(cause, { failed: t('adminMfa.failed') }) });
    }
  }

  useEffect(() => {
    if (!user) return;
    const controller = new AbortController();
    setEvents([]);
    setError(null);
    setLoading(true);
    fetchUserActivity(user.id, controller.signal)
      .then(setEvents)
      .catch((cause) => {
        if (!controller.signal.aborted) {
          setError(failureMessage(cause, { failed: t('users.activityFailed') }));
        }
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [user, t]);

  /** 'Locked until …' and Unlock for a locked account; null when it is not locked. */
  function lockedStatus(user: AdminUser) {
    const end = lockEnd(user);
    if (!end) return null;
    const name = userName(user);
    return (
      <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
        <Tag color='orange'>{t('users.lockedUntil', { time: formatTimeOfDay(end) })}</Tag>
        <Popconfirm
          title={t('users.confirmUnlock', { name })}
          description={t('users.unlockConsequence')}
          okText={t('users.unlock')}
          cancelText={t('users.cancel')}
          onConfirm={() => onUnlock(user)}
        >
          <Button size='small' loading={unlocking} aria-label={t('users.unlockNamed', { name })}>
            {t('users.unlock')}
          </Button>
        </Popconfirm>
      </span>
    );
  }

  return (
    <Modal
      title={t('users.details.title')}
      open={user !== null}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {user && (
        <>
          <Descriptions column={1} size='small' bordered>
            <Descriptions.Item label={t('users.details.name')}>{userName(user)}</Descriptions.Item>
            <Descriptions.Item label={t('users.details.email')}>
              {user.email ?? t('users.notApplicable')}
            </Descriptions.Item>
            {user.doc_number && (
              <Descriptions.Item label={t('users.details.docNumber')}>{user.doc_number}</Descriptions.Item>
            )}
            <Descriptions.Item label={t('users.details.role')}>{roleText(user.role)}</Descriptions.Item>
            <Descriptions.Item label={t('users.details.entity')}>
              {entityText(user.entity_name)}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.details.status')}>
              {lockedStatus(user) ?? statusText(user.status)}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.details.created')}>
              {formatDate(user.created_at)}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.details.userId')}>{user.id}</Descriptions.Item>
          </Descriptions>
          <UserLanguageField user={user} onSaved={(language) => onLanguageSaved(user.id, language)} />
          {user.role !== 'offender' && (
            <div style={{ marginTop: 16 }}>
              <Typography.Title level={5}>{t('adminMfa.heading')}</Typography.Title>
              {own
                ? <Typography.Paragraph type='secondary'>{t('adminMfa.own')}</Typography.Paragraph>
                : (
                  <Popconfirm
                    title={t('adminMfa.confirmTitle')}
                    description={t('adminMfa.confirm')}
                    okText={t('adminMfa.button')}
                    cancelText={t('adminMfa.cancel')}
                    onConfirm={resetFactors}
                  >
                    <Button danger>{t('adminMfa.button')}</Button>
                  </Popconfirm>
                )}
              {reset && (
                <Alert
                  style={{ marginTop: 8 }}
                  type={reset.ok ? 'success' : 'error'}
                  showIcon
                  title={reset.text}
                  role={reset.ok ? 'status' : 'alert'}
                />
              )}
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('users.details.recentActivity')}
          </Typography.Title>
          {error ? <Alert type='error' showIcon title={error} /> : (
            <Spin spinning={loading}>
              <List<ActivityEvent>
                size='small'
                dataSource={events}
                locale={{ emptyText: loading ? ' ' : t('users.noActivity') }}
                renderItem={(event) => (
                  <List.Item>
                    <Tag>{eventDisplayName(event.event_type)}</Tag>
                    <Typography.Text type='secondary'>
                      {formatDateTime(event.created_at)}
                      {event.ip_address ? ` · ${event.ip_address}` : ''}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            </Spin>
          )}
        </>
      )}
    </Modal>
  );
}
