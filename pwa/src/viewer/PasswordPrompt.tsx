/**
 * The viewer's question for a PDF's password (pdf.js's onPassword), in plain words: the sender set it, and the
 * reader types it here instead of meeting a dead end. The field is labelled and takes the focus; a wrong password
 * says so next to the field and the focus returns to it; the button is a 44 px touch target.
 */
import { LockOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, type InputRef, Typography } from 'antd';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function PasswordPrompt({ wrong, onSubmit }: { wrong: boolean; onSubmit(password: string): void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const inputRef = useRef<InputRef>(null);
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();

  // The question takes the focus when it appears, and again after a wrong password.
  useEffect(() => {
    inputRef.current?.focus();
    if (wrong) setPassword('');
  }, [wrong]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '') onSubmit(password);
  };

  return (
    <form className='viewer-password' onSubmit={submit} aria-labelledby={`${fieldId}-title`}>
      <Flex vertical gap={12}>
        <Typography.Title level={2} id={`${fieldId}-title`} className='viewer-password-title'>
          <LockOutlined aria-hidden /> {t('viewer.password.title')}
        </Typography.Title>
        <Typography.Paragraph id={hintId}>{t('viewer.password.hint')}</Typography.Paragraph>
        <label htmlFor={fieldId}>{t('viewer.password.label')}</label>
        <Input.Password
          id={fieldId}
          ref={inputRef}
          size='large'
          autoComplete='off'
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-describedby={wrong ? `${errorId} ${hintId}` : hintId}
          aria-invalid={wrong}
        />
        {wrong && (
          <Alert
            id={errorId}
            type='error'
            role='alert'
            showIcon
            title={t('viewer.password.wrong')}
          />
        )}
        <Button type='primary' htmlType='submit' size='large' className='viewer-password-submit'>
          {t('viewer.password.open')}
        </Button>
      </Flex>
    </form>
  );
}
