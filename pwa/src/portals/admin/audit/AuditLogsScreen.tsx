/**
 * Admin > Audit Logs (spec sections 2, 8, 9): server-side filters, a badge counting the applied filters,
 * pages of 50 with 'Load more', expandable event data, and a CSV export streamed by the server.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Card, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../../components/useToast.ts';
import { ApiError, failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type AuditLog, downloadAuditCsv, fetchAuditLogs } from './auditApi.ts';
import {
  type AuditFilters,
  countActiveFilters,
  emptyAuditText,
  formatEventData,
  mergeEventTypes,
  NO_FILTERS,
} from './auditFilters.ts';
import { eventDisplayName } from './eventNames.ts';

export const AUDIT_TEXTS = {
  title: 'Audit Logs',
  fetchFailed: 'Failed to fetch audit logs',
  noToken: 'No authentication token found',
  exportFailed: 'Failed to export audit logs',
  exported: 'Audit logs exported',
  datesNote: 'Start and end dates are whole days in UTC; times are shown in your local time zone.',
} as const;

const columns: ColumnsType<AuditLog> = [
  {
    title: 'Date/Time',
    dataIndex: 'created_at',
    key: 'created_at',
    render: (v: string) => formatDateTime(v, { seconds: true }),
  },
  {
    title: 'User',
    key: 'user',
    render: (_: unknown, log) =>
      log.user_id
        ? (
          <span title={log.user_id}>
            {log.user_name ?? log.user_id}
          </span>
        )
        : <Typography.Text type='secondary'>System</Typography.Text>,
  },
  {
    title: 'Event Type',
    dataIndex: 'event_type',
    key: 'event_type',
    render: (v: string) => <Tag>{eventDisplayName(v)}</Tag>,
  },
  { title: 'Resource Type', dataIndex: 'resource_type', key: 'resource_type' },
  { title: 'IP Address', dataIndex: 'ip_address', key: 'ip_address', render: (v: string | null) => v ?? '' },
];

export function AuditLogsScreen() {
  const toast = useToast();
  const [form] = Form.useForm<AuditFilters>();
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const [logs, setLogs] = useState<AuditLog[]>([]);
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);
  const request = useRef<AbortController | null>(null);

  const load = useCallback(async (filters: AuditFilters, cursor: string | null) => {
    if (!storage.getGuid()) {
      setError({ title: AUDIT_TEXTS.noToken });
      return;
    }
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    if (cursor) setLoadingMore(true);
    else setLoading(true);
    try {
      const page = await fetchAuditLogs(filters, cursor, controller.signal);
      setError(null);
      setLogs((previous) => (cursor ? [...previous, ...page.logs] : page.logs));
      setEventTypes((previous) => mergeEventTypes([...previous, ...page.eventTypes], page.logs));
      setNextCursor(page.nextCursor);
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') return;
      // A non-OK answer reads 'Failed to fetch audit logs'; the server's reason (a bad date, say) follows.
      const detail = cause instanceof ApiError && cause.serverMessage ? cause.serverMessage : undefined;
      setError({ title: AUDIT_TEXTS.fetchFailed, detail });
      if (!cursor) {
        setLogs([]);
        setNextCursor(null);
      }
    } finally {
      if (request.current === controller) {
        setLoading(false);
        setLoadingMore(false);
      }
    }
  }, []);

  useEffect(() => {
    void load(NO_FILTERS, null);
    return () => request.current?.abort();
  }, [load]);

  function apply(values: Partial<AuditFilters>) {
    const filters: AuditFilters = {
      startDate: values.startDate ?? '',
      endDate: values.endDate ?? '',
      eventType: values.eventType ?? '',
      userId: (values.userId ?? '').trim(),
    };
    setApplied(filters);
    void load(filters, null);
  }

  function clear() {
    form.resetFields();
    setApplied(NO_FILTERS);
    void load(NO_FILTERS, null);
  }

  async function exportCsv() {
    if (!storage.getGuid()) {
      toast.error(AUDIT_TEXTS.noToken);
      return;
    }
    setExporting(true);
    try {
      await downloadAuditCsv(applied);
      toast.success(AUDIT_TEXTS.exported);
    } catch (cause) {
      toast.error(failureMessage(cause, { failed: AUDIT_TEXTS.exportFailed }));
    } finally {
      setExporting(false);
    }
  }

  const activeCount = countActiveFilters(applied);

  return (
    <Space orientation='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={2}>{AUDIT_TEXTS.title}</Typography.Title>
      <Card>
        <Form form={form} layout='vertical' onFinish={apply} initialValues={NO_FILTERS}>
          <Space wrap align='end' size='middle'>
            <Form.Item
              label='Start Date'
              name='startDate'
              htmlFor='audit-start-date'
              style={{ marginBottom: 0 }}
            >
              <Input id='audit-start-date' type='date' />
            </Form.Item>
            <Form.Item label='End Date' name='endDate' htmlFor='audit-end-date' style={{ marginBottom: 0 }}>
              <Input id='audit-end-date' type='date' />
            </Form.Item>
            <Form.Item
              label='Event Type'
              name='eventType'
              htmlFor='audit-event-type'
              style={{ marginBottom: 0 }}
            >
              <Select
                id='audit-event-type'
                allowClear
                showSearch
                optionFilterProp='label'
                placeholder='All event types'
                style={{ minWidth: 220 }}
                options={eventTypes.map((type) => ({ value: type, label: eventDisplayName(type) }))}
              />
            </Form.Item>
            <Form.Item label='User ID' name='userId' htmlFor='audit-user-id' style={{ marginBottom: 0 }}>
              <Input id='audit-user-id' placeholder='User ID' style={{ minWidth: 320 }} />
            </Form.Item>
            <Badge count={activeCount} size='small'>
              <Button type='primary' htmlType='submit'>Apply Filters</Button>
            </Badge>
            <Button onClick={clear}>Clear Filters</Button>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
              Export CSV
            </Button>
          </Space>
        </Form>
        <Typography.Paragraph type='secondary' style={{ marginTop: 8, marginBottom: 0 }}>
          {AUDIT_TEXTS.datesNote}
        </Typography.Paragraph>
      </Card>
      {error && <Alert type='error' showIcon title={error.title} description={error.detail} />}
      <Table<AuditLog>
        rowKey='id'
        columns={columns}
        dataSource={logs}
        loading={loading}
        pagination={false}
        expandable={{
          expandedRowRender: (log) => (
            <pre
              style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >{formatEventData(log.event_data)}</pre>
          ),
        }}
        locale={{ emptyText: emptyAuditText(applied) }}
      />
      {nextCursor && (
        <div style={{ textAlign: 'center' }}>
          <Button loading={loadingMore} onClick={() => void load(applied, nextCursor)}>Load more</Button>
        </div>
      )}
    </Space>
  );
}
