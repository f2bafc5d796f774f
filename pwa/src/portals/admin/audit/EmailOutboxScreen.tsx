/**
 * Admin > Email Outbox: the e-mails to registrants, read-only. Pending messages wait while SMTP is disabled
 * or unreachable (settings of the email category); failed ones show their last error.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import i18next from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { fetchEmailOutbox, type OutboxEmail, type OutboxStatus } from './auditApi.ts';
import { eventDisplayName } from './eventNames.ts';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

const STATUS_COLOR: Record<OutboxStatus, string> = { pending: 'gold', sent: 'green', failed: 'red' };

/** Each status's name in the catalogues. */
const STATUS_TEXT = {
  pending: 'outbox.statuses.pending',
  sent: 'outbox.statuses.sent',
  failed: 'outbox.statuses.failed',
} as const satisfies Record<OutboxStatus, string>;

/** The table's columns, titled in the language shown. */
function outboxColumns(t: typeof i18next.t): ColumnsType<OutboxEmail> {
  return [
    {
      title: t('outbox.columns.created'),
      dataIndex: 'created_at',
      key: 'created_at',
      render: (v: string) => formatDateTime(v),
    },
    { title: t('outbox.columns.to'), dataIndex: 'to_address', key: 'to_address' },
    {
      title: t('outbox.columns.message'),
      dataIndex: 'kind',
      key: 'kind',
      render: (v: string) => eventDisplayName(v),
    },
    {
      title: t('outbox.columns.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: OutboxStatus) => <Tag color={STATUS_COLOR[v]}>{STATUS_TEXT[v] ? t(STATUS_TEXT[v]) : v}
      </Tag>,
    },
    { title: t('outbox.columns.attempts'), dataIndex: 'attempts', key: 'attempts' },
    {
      title: t('outbox.columns.when'),
      key: 'when',
      render: (
        _: unknown,
        e,
      ) => (e.status === 'sent'
        ? formatDateTime(e.sent_at)
        : e.status === 'pending'
        ? formatDateTime(e.next_attempt_at)
        : ''),
    },
    {
      title: t('outbox.columns.lastError'),
      dataIndex: 'last_error',
      key: 'last_error',
      render: (v: string | null) => v ?? '',
    },
  ];
}

export function EmailOutboxScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<OutboxStatus | undefined>(undefined);
  const [emails, setEmails] = useState<OutboxEmail[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (which: OutboxStatus | undefined) => {
    if (!storage.getGuid()) {
      setError(i18next.t('audit.noToken'));
      return;
    }
    setLoading(true);
    try {
      setEmails(await fetchEmailOutbox(which));
      setError(null);
    } catch (cause) {
      setError(failureMessage(cause, { failed: i18next.t('outbox.fetchFailed') }));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(status);
  }, [load, status]);

  return (
    <Space orientation='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={2}>{t('outbox.title')}</Typography.Title>
      <Typography.Paragraph type='secondary'>{t('outbox.intro')}</Typography.Paragraph>
      <Space wrap align='end'>
        <Form layout='vertical'>
          <Form.Item label={t('outbox.columns.status')} htmlFor='outbox-status' style={{ marginBottom: 0 }}>
            <Select
              id='outbox-status'
              allowClear
              placeholder={t('outbox.all')}
              style={{ minWidth: 160 }}
              value={status}
              onChange={(v) => setStatus(v)}
              options={[
                { value: 'pending', label: t(STATUS_TEXT.pending) },
                { value: 'sent', label: t(STATUS_TEXT.sent) },
                { value: 'failed', label: t(STATUS_TEXT.failed) },
              ]}
            />
          </Form.Item>
        </Form>
        <Button icon={<ReloadOutlined />} onClick={() => void load(status)}>{t('section.refresh')}</Button>
      </Space>
      {error && <Alert type='error' showIcon title={error} />}
      <Table<OutboxEmail>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(outboxColumns(t))}
        dataSource={emails}
        loading={loading}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: t('outbox.empty') }}
      />
    </Space>
  );
}
