/**
 * Admin > Audit Logs (spec sections 2, 8, 9): server-side filters, a badge counting the applied filters,
 * pages of 50 with 'Load more', expandable event data, and a CSV export streamed by the server. The User filter
 * finds the user by name or e-mail (UserPicker.tsx) and filters by their id.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Card, Form, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/DateField.tsx';
import { useToast } from '../../../components/useToast.ts';
import { ApiError, codeText, failureMessage } from '../../../lib/api.ts';
import { storage } from '../../../lib/storage.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCursorPages } from '../../../lib/useCursorPages.ts';
import { type AuditLog, type AuditLogPage, downloadAuditCsv, fetchAuditLogs } from './auditApi.ts';
import {
  type AuditFilters,
  countActiveFilters,
  emptyAuditText,
  formatEventData,
  mergeEventTypes,
  NO_FILTERS,
} from './auditFilters.ts';
import { eventDisplayName, resourceDisplayName } from './eventNames.ts';
import { UserPicker } from './UserPicker.tsx';
import { AuditIntegrityNote } from './AuditIntegrityNote.tsx';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

const NO_LOGS: AuditLogPage = { logs: [], nextCursor: null, eventTypes: [] };

/** A further page's rows after those shown. */
function appendLogs(shown: AuditLogPage, next: AuditLogPage): AuditLogPage {
  return { ...next, logs: [...shown.logs, ...next.logs] };
}

/** Refused before anything is sent: there is no session to send. */
const NO_TOKEN = new Error('no session');

interface LoadFailure {
  title: string;
  detail?: string;
}

function describeFailure(failure: unknown): LoadFailure {
  if (failure === NO_TOKEN) return { title: i18next.t('audit.noToken') };
  // A non-OK answer reads 'Failed to fetch audit logs'; the server's reason (a bad date, say) follows, in the
  // language shown when its code has a text.
  const detail = failure instanceof ApiError
    ? codeText(failure) ?? (failure.serverMessage || undefined)
    : undefined;
  return { title: i18next.t('audit.fetchFailed'), detail };
}

/** The table's columns, titled in the language shown. */
function auditColumns(t: typeof i18next.t): ColumnsType<AuditLog> {
  return [
    {
      title: t('audit.columns.dateTime'),
      dataIndex: 'created_at',
      key: 'created_at',
      render: (v: string) => formatDateTime(v, { seconds: true }),
    },
    {
      title: t('audit.columns.user'),
      key: 'user',
      render: (_: unknown, log) =>
        log.user_id
          ? (
            <span title={log.user_id}>
              {log.user_name ?? log.user_id}
            </span>
          )
          : <Typography.Text type='secondary'>{t('audit.system')}</Typography.Text>,
    },
    {
      title: t('audit.columns.eventType'),
      dataIndex: 'event_type',
      key: 'event_type',
      render: (v: string) => <Tag>{eventDisplayName(v)}</Tag>,
    },
    {
      title: t('audit.columns.resourceType'),
      dataIndex: 'resource_type',
      key: 'resource_type',
      render: (v: string) => resourceDisplayName(v),
    },
    {
      title: t('audit.columns.ip'),
      dataIndex: 'ip_address',
      key: 'ip_address',
      render: (v: string | null) => v ?? '',
    },
  ];
}

export function AuditLogsScreen() {
  const { t } = useTranslation();
  const toast = useToast();
  const [form] = Form.useForm<AuditFilters>();
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  // Every type the server or a loaded row has named since the screen opened; a failed load keeps them.
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  const pages = useCursorPages({
    query: applied,
    async fetchPage(filters: AuditFilters, cursor: string | null, signal: AbortSignal) {
      if (!storage.getGuid()) throw NO_TOKEN;
      const page = await fetchAuditLogs(filters, cursor, signal);
      if (!signal.aborted) {
        setEventTypes((previous) => mergeEventTypes([...previous, ...page.eventTypes], page.logs));
      }
      return page;
    },
    empty: NO_LOGS,
    append: appendLogs,
    describe: describeFailure,
  });
  // One message at a time: the first page's failure, or else a 'Load more' that failed.
  const error = pages.error ?? pages.moreError;

  // Always a new object, so that applying or clearing asks the server again even when nothing changed.
  function apply(values: Partial<AuditFilters>) {
    setApplied({
      startDate: values.startDate ?? '',
      endDate: values.endDate ?? '',
      eventType: values.eventType ?? '',
      userId: (values.userId ?? '').trim(),
    });
  }

  function clear() {
    form.resetFields();
    setApplied({ ...NO_FILTERS });
  }

  async function exportCsv() {
    if (!storage.getGuid()) {
      toast.error(t('audit.noToken'));
      return;
    }
    setExporting(true);
    try {
      await downloadAuditCsv(applied);
      toast.success(t('audit.exported'));
    } catch (cause) {
      toast.error(failureMessage(cause, { failed: t('audit.exportFailed') }));
    } finally {
      setExporting(false);
    }
  }

  const activeCount = countActiveFilters(applied);

  return (
    <Space orientation='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={2}>{t('audit.title')}</Typography.Title>
      <AuditIntegrityNote />
      <Card>
        <Form form={form} layout='vertical' onFinish={apply} initialValues={NO_FILTERS}>
          <Space wrap align='end' size='middle'>
            <Form.Item
              label={t('audit.startDate')}
              name='startDate'
              htmlFor='audit-start-date'
              style={{ marginBottom: 0 }}
            >
              <DateField id='audit-start-date' />
            </Form.Item>
            <Form.Item
              label={t('audit.endDate')}
              name='endDate'
              htmlFor='audit-end-date'
              style={{ marginBottom: 0 }}
            >
              <DateField id='audit-end-date' />
            </Form.Item>
            <Form.Item
              label={t('audit.eventType')}
              name='eventType'
              htmlFor='audit-event-type'
              style={{ marginBottom: 0 }}
            >
              <Select
                id='audit-event-type'
                allowClear
                showSearch
                optionFilterProp='label'
                placeholder={t('audit.allEventTypes')}
                style={{ minWidth: 220 }}
                options={eventTypes.map((type) => ({ value: type, label: eventDisplayName(type) }))}
              />
            </Form.Item>
            <Form.Item
              label={t('audit.userId')}
              name='userId'
              htmlFor='audit-user-id'
              style={{ marginBottom: 0 }}
            >
              <UserPicker id='audit-user-id' />
            </Form.Item>
            <Badge count={activeCount} size='small'>
              <Button type='primary' htmlType='submit'>{t('audit.apply')}</Button>
            </Badge>
            <Button onClick={clear}>{t('audit.clear')}</Button>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
              {t('audit.export')}
            </Button>
          </Space>
        </Form>
        <Typography.Paragraph type='secondary' style={{ marginTop: 8, marginBottom: 0 }}>
          {t('audit.datesNote')}
        </Typography.Paragraph>
      </Card>
      {error && <Alert type='error' showIcon title={error.title} description={error.detail} />}
      <Table<AuditLog>
        rowKey='id'
        className={STACKED_TABLE}
        columns={stackedColumns(auditColumns(t))}
        dataSource={pages.page.logs}
        loading={pages.loading}
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
      {pages.page.nextCursor && (
        <div style={{ textAlign: 'center' }}>
          <Button loading={pages.loadingMore} disabled={pages.loading} onClick={() => void pages.loadMore()}>
            {t('audit.loadMore')}
          </Button>
        </div>
      )}
    </Space>
  );
}
