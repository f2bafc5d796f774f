/**
 * Admin > Email Outbox: the e-mails to registrants, read-only. Pending messages wait while SMTP is disabled
 * or unreachable (settings of the email category); failed ones show their last error.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { fetchEmailOutbox, type OutboxEmail, type OutboxStatus } from './auditApi.ts';
import { eventDisplayName } from './eventNames.ts';

export const OUTBOX_TEXTS = {
  title: 'Email Outbox',
  intro:
    'E-mails to registrants. Pending messages are sent when SMTP is enabled and reachable (Settings, email).',
  fetchFailed: 'Failed to load the email outbox',
  noToken: 'No authentication token found',
  empty: 'No e-mails in the outbox',
} as const;

const STATUS_COLOR: Record<OutboxStatus, string> = { pending: 'gold', sent: 'green', failed: 'red' };

const columns: ColumnsType<OutboxEmail> = [
  { title: 'Created', dataIndex: 'created_at', key: 'created_at', render: (v: string) => formatDateTime(v) },
  { title: 'To', dataIndex: 'to_address', key: 'to_address' },
  { title: 'Message', dataIndex: 'kind', key: 'kind', render: (v: string) => eventDisplayName(v) },
  {
    title: 'Status',
    dataIndex: 'status',
    key: 'status',
    render: (v: OutboxStatus) => <Tag color={STATUS_COLOR[v]}>{v}</Tag>,
  },
  { title: 'Attempts', dataIndex: 'attempts', key: 'attempts' },
  {
    title: 'Next attempt / Sent',
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
  { title: 'Last error', dataIndex: 'last_error', key: 'last_error', render: (v: string | null) => v ?? '' },
];

export function EmailOutboxScreen() {
  const [status, setStatus] = useState<OutboxStatus | undefined>(undefined);
  const [emails, setEmails] = useState<OutboxEmail[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (which: OutboxStatus | undefined) => {
    if (!storage.getGuid()) {
      setError(OUTBOX_TEXTS.noToken);
      return;
    }
    setLoading(true);
    try {
      setEmails(await fetchEmailOutbox(which));
      setError(null);
    } catch (cause) {
      setError(failureMessage(cause, { failed: OUTBOX_TEXTS.fetchFailed }));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(status);
  }, [load, status]);

  return (
    <Space orientation='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={2}>{OUTBOX_TEXTS.title}</Typography.Title>
      <Typography.Paragraph type='secondary'>{OUTBOX_TEXTS.intro}</Typography.Paragraph>
      <Space wrap align='end'>
        <Form layout='vertical'>
          <Form.Item label='Status' htmlFor='outbox-status' style={{ marginBottom: 0 }}>
            <Select
              id='outbox-status'
              allowClear
              placeholder='All'
              style={{ minWidth: 160 }}
              value={status}
              onChange={(v) => setStatus(v)}
              options={[
                { value: 'pending', label: 'Pending' },
                { value: 'sent', label: 'Sent' },
                { value: 'failed', label: 'Failed' },
              ]}
            />
          </Form.Item>
        </Form>
        <Button icon={<ReloadOutlined />} onClick={() => void load(status)}>Refresh</Button>
      </Space>
      {error && <Alert type='error' showIcon title={error} />}
      <Table<OutboxEmail>
        rowKey='id'
        columns={columns}
        dataSource={emails}
        loading={loading}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: OUTBOX_TEXTS.empty }}
      />
    </Space>
  );
}
