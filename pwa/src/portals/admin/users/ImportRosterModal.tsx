/**
 * 'Import Roster': pick a .csv file (header doc_number,first_name,last_name,pin), send it as text/csv, show
 * the progress, then the report: counts of added, updated and rejected rows and each rejected row's reason.
 */
import { Alert, Button, Form, Modal, Progress, Space, Statistic, Table, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { FilePicker } from '../../../components/FilePicker.tsx';
import { failureMessage } from '../../../lib/api.ts';
import { importRoster, type RosterReport, type RosterReportRow } from './usersApi.ts';
import { rejectedRows, rosterFileProblem, rosterSummary } from './usersLogic.ts';
import { STACKED_TABLE, stackedColumns } from '../../../components/stackedTable.ts';

type Stage =
  | { kind: 'pick' }
  | { kind: 'working'; percent: number; label: string }
  | { kind: 'done'; report: RosterReport };

/** The rejected rows' columns, titled in the language shown. */
function rejectedColumns(t: TFunction) {
  return [
    { title: t('users.import.line'), dataIndex: 'line', key: 'line', width: 80 },
    { title: t('users.import.docNumber'), dataIndex: 'docNumber', key: 'docNumber', width: 140 },
    {
      title: t('users.import.reason'),
      dataIndex: 'reason',
      key: 'reason',
      render: (_: unknown, row: RosterReportRow) => rejectionText(row, t),
    },
  ];
}

/** A rejected row's reason in the language shown, from its code; the API's English when it sent no code. */
function rejectionText(row: RosterReportRow, t: TFunction): string {
  if (!row.code) return row.reason ?? '';
  return t(`users.import.reasons.${row.code}`, { ...row.params });
}

export function ImportRosterModal(props: { open: boolean; onClose(imported: boolean): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'pick' });
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation();

  function close() {
    const imported = stage.kind === 'done';
    setFile(null);
    setStage({ kind: 'pick' });
    setError(null);
    props.onClose(imported);
  }

  async function start() {
    if (!file) return;
    const problem = rosterFileProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setStage({ kind: 'working', percent: 20, label: t('users.import.reading') });
    try {
      const text = await file.text();
      const rows = Math.max(0, text.split(/\r?\n/).filter((line) => line.trim() !== '').length - 1);
      // The server checks every row in one request; the bar shows which step is under way.
      setStage({ kind: 'working', percent: 60, label: t('users.import.importing', { count: rows }) });
      const { report } = await importRoster(file);
      setStage({ kind: 'done', report });
    } catch (cause) {
      setStage({ kind: 'pick' });
      setError(failureMessage(cause, { failed: t('users.import.failed') }));
    }
  }

  const working = stage.kind === 'working';
  const footer = stage.kind === 'done'
    ? <Button type='primary' onClick={close}>{t('users.import.done')}</Button>
    : (
      <Space>
        <Button onClick={close} disabled={working}>{t('users.import.cancel')}</Button>
        <Button type='primary' onClick={() => void start()} disabled={!file} loading={working}>
          {t('users.import.import')}
        </Button>
      </Space>
    );

  return (
    <Modal
      title={t('users.importRoster')}
      open={props.open}
      onCancel={working ? undefined : close}
      closable={!working}
      footer={footer}
      width={720}
      destroyOnHidden
    >
      {stage.kind !== 'done' && (
        <>
          <Typography.Paragraph>
            <Trans i18nKey='users.import.intro' components={{ code: <code /> }} />
          </Typography.Paragraph>
          <Form layout='vertical' component='div'>
            <Form.Item label={t('users.import.file')} htmlFor='roster-file'>
              <FilePicker
                id='roster-file'
                accept='.csv,text/csv'
                file={file}
                disabled={working}
                chooseLabel={t('users.import.chooseFile')}
                noneLabel={t('users.import.noFile')}
                onPick={(picked) => {
                  setFile(picked);
                  setError(null);
                }}
              />
            </Form.Item>
          </Form>
          {working && <Progress percent={stage.percent} status='active' aria-label={stage.label} />}
          {working && <Typography.Text type='secondary'>{stage.label}</Typography.Text>}
          {error && <Alert type='error' showIcon title={error} />}
        </>
      )}
      {stage.kind === 'done' && <RosterReportView report={stage.report} />}
    </Modal>
  );
}

/** The summary in the language shown (in English, the API's own sentence: tests/checks). */
function RosterReportView({ report }: { report: RosterReport }) {
  const rejected = rejectedRows(report.rows);
  const { t } = useTranslation();
  return (
    <section aria-label={t('users.import.report')}>
      <Alert
        type={report.rejected > 0 ? 'warning' : 'success'}
        showIcon
        title={rosterSummary(report)}
      />
      <Space size='large' style={{ margin: '16px 0' }}>
        <Statistic title={t('users.import.added')} value={report.added} />
        <Statistic title={t('users.import.updated')} value={report.updated} />
        <Statistic title={t('users.import.rejected')} value={report.rejected} />
      </Space>
      {rejected.length > 0 && (
        <>
          <Typography.Title level={5}>{t('users.import.rejectedRows')}</Typography.Title>
          <Table<RosterReportRow>
            rowKey='line'
            size='small'
            className={STACKED_TABLE}
            columns={stackedColumns<RosterReportRow>(rejectedColumns(t))}
            dataSource={rejected}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
          />
        </>
      )}
    </section>
  );
}
