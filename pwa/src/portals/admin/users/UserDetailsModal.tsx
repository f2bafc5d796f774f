/**
 * View Details: the user's basic information and their last 10 real audit events ('Recent Activity (Last 10
 * Events)'), and for another staff user 'Reset second factors' (their passkeys, security keys, authenticator apps
 * and recovery codes go; they are e-mailed, and add a factor again at their next sign-in if their role must).
 */
import { Alert, Button, Descriptions, List, Modal, Popconfirm, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { eventDisplayName } from '../audit/eventNames.ts';
import { type ActivityEvent, type AdminUser, fetchUserActivity, resetSecondFactors } from './usersApi.ts';
import { capitalize, entityText, userName, USERS_TEXTS } from './usersLogic.ts';

export function UserDetailsModal({ user, onClose }: { user: AdminUser | null; onClose(): void }) {
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
          setError(failureMessage(cause, { failed: USERS_TEXTS.activityFailed }));
        }
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [user]);

  return (
    <Modal
      title='User Details'
      open={user !== null}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {user && (
        <>
          <Descriptions column={1} size='small' bordered>
            <Descriptions.Item label='Name'>{userName(user)}</Descriptions.Item>
            <Descriptions.Item label='Email'>{user.email ?? 'N/A'}</Descriptions.Item>
            {user.doc_number && <Descriptions.Item label='DOC Number'>{user.doc_number}</Descriptions.Item>}
            <Descriptions.Item label='Role'>{capitalize(user.role)}</Descriptions.Item>
            <Descriptions.Item label='Entity'>{entityText(user.entity_name)}</Descriptions.Item>
            <Descriptions.Item label='Status'>{capitalize(user.status)}</Descriptions.Item>
            <Descriptions.Item label='Created'>{formatDate(user.created_at)}</Descriptions.Item>
            <Descriptions.Item label='User ID'>{user.id}</Descriptions.Item>
          </Descriptions>
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
            Recent Activity (Last 10 Events)
          </Typography.Title>
          {error ? <Alert type='error' showIcon title={error} /> : (
            <Spin spinning={loading}>
              <List<ActivityEvent>
                size='small'
                dataSource={events}
                locale={{ emptyText: loading ? ' ' : USERS_TEXTS.noActivity }}
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
