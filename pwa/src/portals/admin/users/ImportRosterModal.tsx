/**
 * 'Import Roster': pick a .csv file (header doc_number,first_name,last_name,pin), send it as text/csv, show
 * the progress, then the report: counts of added, updated and rejected rows and each rejected row's reason.
 */
import { Alert, Button, Form, Modal, Progress, Space, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { failureMessage } from '../../../lib/api.ts';
import { importRoster, type RosterReport, type RosterReportRow } from './usersApi.ts';
import { rejectedRows, rosterFileProblem, rosterSummary, USERS_TEXTS } from './usersLogic.ts';

type Stage =
  | { kind: 'pick' }
  | { kind: 'working'; percent: number; label: string }
  | { kind: 'done'; report: RosterReport; message: string | null };

const rejectedColumns = [
  { title: 'Line', dataIndex: 'line', key: 'line', width: 80 },
  { title: 'DOC Number', dataIndex: 'docNumber', key: 'docNumber', width: 140 },
  { title: 'Reason', dataIndex: 'reason', key: 'reason' },
];

export function ImportRosterModal(props: { open: boolean; onClose(imported: boolean): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'pick' });
  const [error, setError] = useState<string | null>(null);

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
    setStage({ kind: 'working', percent: 20, label: 'Reading the file…' });
    try {
      const text = await file.text();
      const rows = Math.max(0, text.split(/\r?\n/).filter((line) => line.trim() !== '').length - 1);
      // The server checks every row in one request; the bar shows which step is under way.
      setStage({ kind: 'working', percent: 60, label: `Importing ${rows} ${rows === 1 ? 'row' : 'rows'}…` });
      const { report, message } = await importRoster(file);
      setStage({ kind: 'done', report, message });
    } catch (cause) {
      setStage({ kind: 'pick' });
      setError(failureMessage(cause, { failed: USERS_TEXTS.importFailed }));
    }
  }

  const working = stage.kind === 'working';
  const footer = stage.kind === 'done' ? <Button type='primary' onClick={close}>Done</Button> : (
    <Space>
      <Button onClick={close} disabled={working}>Cancel</Button>
      <Button type='primary' onClick={() => void start()} disabled={!file} loading={working}>Import</Button>
    </Space>
  );

  return (
    <Modal
      title='Import Roster'
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
            A CSV file with the header row <code>doc_number,first_name,last_name,pin</code>{' '}
            (at most 5 MB). An existing DOC number is updated; its PIN changes only when the row gives one. A
            bad row is reported and never stops the others.
          </Typography.Paragraph>
          <Form layout='vertical' component='div'>
            <Form.Item label='Roster CSV file' htmlFor='roster-file'>
              <input
                id='roster-file'
                type='file'
                accept='.csv,text/csv'
                disabled={working}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
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
      {stage.kind === 'done' && <RosterReportView report={stage.report} message={stage.message} />}
    </Modal>
  );
}

function RosterReportView({ report, message }: { report: RosterReport; message: string | null }) {
  const rejected = rejectedRows(report.rows);
  return (
    <section aria-label='Import report'>
      <Alert
        type={report.rejected > 0 ? 'warning' : 'success'}
        showIcon
        title={message ?? rosterSummary(report)}
      />
      <Space size='large' style={{ margin: '16px 0' }}>
        <Statistic title='Added' value={report.added} />
        <Statistic title='Updated' value={report.updated} />
        <Statistic title='Rejected' value={report.rejected} />
      </Space>
      {rejected.length > 0 && (
        <>
          <Typography.Title level={5}>Rejected rows</Typography.Title>
          <Table<RosterReportRow>
            rowKey='line'
            size='small'
            columns={rejectedColumns}
            dataSource={rejected}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
          />
        </>
      )}
    </section>
  );
}
