/**
 * 'Upload Document' (attorney and representative): Recipient DOC Number (one,
 * or up to 20 for co-defendants; each shown as 'SMITH, J. — DOC 100001' once
 * the server confirms who it is), Document Title, optional Description, the
 * time-sensitive mark with its optional respond-by date, and a PDF picker.
 * Upload stays disabled until the three required parts are set and every
 * recipient is confirmed; a non-PDF or oversized
 * file is refused before anything is sent; while the bytes go up a progress
 * bar shows the percentage. On success the modal closes, the form resets and
 * the caller reloads its list.
 *
 * antd's Form and Modal: loaded only when 'Upload New Document' is first clicked (the default export, for
 * React.lazy in SenderDocuments.tsx), so the lists paint without antd.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, Modal, Progress, Typography } from 'antd';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AntdTheme } from '../components/AntdShell.tsx';
import { DateField } from '../components/DateField.tsx';
import { FilePicker } from '../components/FilePicker.tsx';
import { useAppConfig } from '../components/AppConfigProvider.tsx';
import { useToast } from '../components/useToast.ts';
import { failureMessage } from '../lib/api.ts';
import { uploadWithProgress } from './mailApi.ts';
import { RecipientChecks, useRecipientChecks } from './RecipientChecks.tsx';
import {
  EMPTY_UPLOAD_FORM,
  fileProblem,
  MAX_RECIPIENTS,
  recipientsConfirmed,
  uploadBody,
  type UploadFormState,
  uploadHint,
  uploadReady,
  type UploadTexts,
} from './uploadForm.ts';
import { trapTab } from '../components/focusTrap.ts';

export interface UploadModalProps {
  open: boolean;
  path: '/documents/upload' | '/representative/upload';
  texts: UploadTexts;
  onClose(): void;
  onUploaded(): void;
}

export function UploadModal({ open, path, texts, onClose, onUploaded }: UploadModalProps) {
  const { maxUploadMb } = useAppConfig();
  const toast = useToast();
  const { t } = useTranslation();
  const [form, setForm] = useState<UploadFormState>(EMPTY_UPLOAD_FORM);
  const checks = useRecipientChecks(open ? form.recipientDocNumber : '');
  const ready = uploadReady(form) && recipientsConfirmed(form.recipientDocNumber, checks);
  const recipientsId = useId();
  const respondById = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  /** The chosen PDF needs a password to open: the sender is told, before sending, what the recipient will meet. */
  const [passwordNeeded, setPasswordNeeded] = useState(false);
  const pickedRef = useRef<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileId = useId();
  const hintId = useId();
  const submitting = progress !== null;

  const reset = () => {
    setForm(EMPTY_UPLOAD_FORM);
    setFileError(null);
    setPasswordNeeded(false);
    pickedRef.current = null;
    setProgress(null);
  };

  const close = () => {
    if (submitting) return;
    reset();
    onClose();
  };

  const pickFile = (file: File) => {
    const problem = fileProblem(file, maxUploadMb);
    setFileError(problem);
    setForm((current) => ({ ...current, selectedFile: problem ? null : file }));
    setPasswordNeeded(false);
    pickedRef.current = problem ? null : file;
    if (!problem) void checkPassword(file);
  };

  /** pdf.js (loaded only now) tells whether the PDF needs a password; an answer for an earlier pick is dropped. */
  const checkPassword = async (file: File) => {
    try {
      const { needsPassword } = await import('../viewer/engine.ts');
      const needed = await needsPassword(file);
      if (pickedRef.current === file) setPasswordNeeded(needed);
    } catch (error) {
      console.error('Could not tell whether the PDF needs a password', error);
    }
  };

  const submit = async () => {
    if (!ready || !form.selectedFile) {
      toast.error(texts.required);
      return;
    }
    setProgress(0);
    try {
      await uploadWithProgress(path, uploadBody({ ...form, selectedFile: form.selectedFile }), setProgress);
      // The API's 'Document uploaded successfully!' is the English text; the toast speaks the language shown.
      toast.success(t('upload.success'));
      reset();
      onClose();
      onUploaded();
    } catch (error) {
      setProgress(null);
      toast.error(failureMessage(error, { failed: texts.failed, error: texts.error }));
    }
  };

  const set =
    (field: 'recipientDocNumber' | 'documentTitle' | 'description') =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => ({ ...current, [field]: event.target.value }));

  return (
    <Modal
      open={open}
      title={t('upload.title')}
      onCancel={close}
      maskClosable={!submitting}
      keyboard={!submitting}
      closable={!submitting}
      destroyOnHidden
      // The focus starts in the first field, not on the ×: the dialog is there to be filled in. The opening's
      // animation ends later on a slow machine, so a person already in a field or on a button of the dialog (a
      // keyboard user who tabbed on and typed) keeps their place.
      afterOpenChange={(opened) => {
        const inDialog = document.activeElement?.closest('.ant-modal-body, .ant-modal-footer');
        if (opened && !inDialog) document.getElementById('upload-doc-number')?.focus();
      }}
      modalRender={(dialog) => <div onKeyDown={trapTab}>{dialog}</div>}
      footer={[
        <Button key='cancel' onClick={close} disabled={submitting}>{t('upload.cancel')}</Button>,
        <Button
          key='upload'
          type='primary'
          icon={<UploadOutlined />}
          onClick={submit}
          loading={submitting}
          disabled={!ready}
        >
          {t('upload.submit')}
        </Button>,
      ]}
    >
      <Form layout='vertical' onFinish={submit} disabled={submitting}>
        <Form.Item
          label={t('upload.recipientLabel')}
          htmlFor='upload-doc-number'
          required
          extra={t('upload.recipientsHint', { max: MAX_RECIPIENTS })}
        >
          <Input.TextArea
            id='upload-doc-number'
            value={form.recipientDocNumber}
            onChange={set('recipientDocNumber')}
            autoComplete='off'
            autoSize={{ minRows: 1, maxRows: 6 }}
            aria-describedby={recipientsId}
          />
          <RecipientChecks id={recipientsId} text={form.recipientDocNumber} checks={checks} />
        </Form.Item>
        <Form.Item label={t('upload.documentTitle')} htmlFor='upload-title' required>
          <Input
            id='upload-title'
            value={form.documentTitle}
            onChange={set('documentTitle')}
            maxLength={200}
          />
        </Form.Item>
        <Form.Item label={t('upload.description')} htmlFor='upload-description'>
          <Input.TextArea
            id='upload-description'
            value={form.description}
            onChange={set('description')}
            rows={3}
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: form.timeSensitive ? 8 : undefined }}>
          <Checkbox
            checked={form.timeSensitive}
            onChange={(event) =>
              setForm((current) => ({
                ...current,
                timeSensitive: event.target.checked,
                respondBy: event.target.checked ? current.respondBy : '',
              }))}
          >
            {t('upload.timeSensitive')}
          </Checkbox>
          <Typography.Text type='secondary' className='upload-hint'>
            {t('upload.timeSensitiveHint')}
          </Typography.Text>
        </Form.Item>
        {form.timeSensitive && (
          <Form.Item label={t('upload.respondBy')} htmlFor={respondById}>
            <DateField
              id={respondById}
              value={form.respondBy}
              notBeforeToday
              onChange={(respondBy) => setForm((current) => ({ ...current, respondBy }))}
            />
          </Form.Item>
        )}
        <Form.Item label={t('upload.file')} htmlFor={fileId} required>
          <FilePicker
            id={fileId}
            accept='.pdf,application/pdf'
            file={form.selectedFile}
            onPick={pickFile}
            chooseLabel={t('upload.chooseFile')}
            noneLabel={t('upload.noFile')}
            describedBy={hintId}
            disabled={submitting}
          />
          <Typography.Text type='secondary' id={hintId} className='upload-hint'>
            {uploadHint(maxUploadMb)}
          </Typography.Text>
        </Form.Item>
        {fileError && <Alert type='error' showIcon title={fileError} role='alert' />}
        {passwordNeeded && (
          <Alert
            type='warning'
            showIcon
            role='status'
            className='upload-password-notice'
            title={t('upload.passwordTitle')}
            description={t('upload.passwordBody')}
          />
        )}
        {submitting && (
          <div className='upload-progress'>
            {/* A live region: a screen reader hears the upload start and how far it has gone. */}
            <Typography.Text id='upload-progress-label' role='status'>
              {t('upload.uploading', { percent: progress })}
            </Typography.Text>
            <Progress percent={progress} status='active' aria-labelledby='upload-progress-label' />
          </div>
        )}
      </Form>
    </Modal>
  );
}

/**
 * For React.lazy: the modal inside the app's antd theme (the sender portals render outside the antd shell). Its
 * toasts are the light ones of the page around it (components/useToast.ts).
 */
export default function ThemedUploadModal(props: UploadModalProps) {
  return (
    <AntdTheme>
      <UploadModal {...props} />
    </AntdTheme>
  );
}
