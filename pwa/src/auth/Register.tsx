/**
 * /register, 'Attorney Registration' (spec sections 2, 4, 5, 8). The form's
 * behaviour lives in registrationForm.ts; this file renders it.
 */
import { Alert, Button, Checkbox, Col, Form, Input, Row, Select, Typography } from 'antd';
import { type ChangeEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/i18n.ts';
import { LanguageSwitch } from '../i18n/LanguageSwitch.tsx';
import { chooseOnSignIn, keepChoiceInAddress } from '../i18n/language.ts';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { PasswordStrengthLabel } from './PasswordStrengthLabel.tsx';
import { useToast } from '../components/useToast.ts';
import { ApiError, failureMessage } from '../lib/api.ts';
import { register } from './authApi.ts';
import {
  blurField,
  checkAll,
  compareStates,
  editField,
  EMPTY_REGISTRATION,
  type FormState,
  messageText,
  refusedField,
  type RegistrationField,
  setRepresentative,
  stateMatches,
  stateOptions,
  type TextField,
  toRegistrationRequest,
} from './registrationForm.ts';
import { PATHS } from '../lib/routing.ts';

/** Spec section 9: redirect to /login 2000 ms after a successful registration. */
const REDIRECT_AFTER_MS = 2000;

/** Each field's label in the catalogues. */
const FIELD_LABELS = {
  firstName: 'register.fields.firstName',
  lastName: 'register.fields.lastName',
  email: 'register.fields.email',
  password: 'register.fields.password',
  confirmPassword: 'register.fields.confirmPassword',
  barNumber: 'register.fields.barNumber',
  barState: 'register.fields.barState',
  phone: 'register.fields.phone',
  supervisingAttorneyName: 'register.fields.supervisingAttorneyName',
  supervisingAttorneyBar: 'register.fields.supervisingAttorneyBar',
  supervisingAttorneyEmail: 'register.fields.supervisingAttorneyEmail',
  addressLine1: 'register.fields.addressLine1',
  addressLine2: 'register.fields.addressLine2',
  city: 'register.fields.city',
  state: 'register.fields.state',
  zipCode: 'register.fields.zipCode',
} as const satisfies Record<TextField, string>;

interface FieldSpec {
  required?: boolean;
  /** 'state': one of the USPS codes, chosen by name from a searchable list. */
  type?: 'text' | 'email' | 'password' | 'tel' | 'state';
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  extra?: ReactNode;
}

/**
 * An attorney's invitation, from the link's fragment (`#invitation=<code>&email=<address>`): the fragment never
 * reaches a server's log, and the page takes it out of the address bar once read.
 */
function readInvitation(): { code: string; email: string } | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const code = params.get('invitation')?.trim();
  return code ? { code, email: params.get('email') ?? '' } : null;
}

function focusField(field: RegistrationField) {
  const element = document.getElementById(field);
  element?.focus();
  element?.scrollIntoView?.({ block: 'center' });
}

export function Register() {
  const { t } = useTranslation();
  const [invitation] = useState(readInvitation);
  // Invited: a representative whose supervising attorney is the invitation's (the server fills it in), so the
  // form's own supervising fields are not asked.
  const [form, setForm] = useState<FormState>(() => ({
    values: invitation ? { ...EMPTY_REGISTRATION, email: invitation.email } : EMPTY_REGISTRATION,
    errors: {},
  }));
  useEffect(() => {
    if (invitation) window.history.replaceState(window.history.state, '', window.location.pathname);
    // A language chosen on the sign-in page is written in this page's address too, so a reload keeps it.
    keepChoiceInAddress();
  }, [invitation]);
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);
  // A refused field takes the focus once the form is enabled again (a disabled field takes none).
  const [refocus, setRefocus] = useState<TextField | null>(null);
  useEffect(() => {
    if (refocus === null || loading) return;
    focusField(refocus);
    setRefocus(null);
  }, [refocus, loading]);

  const { values, errors } = form;
  const language = currentLanguage();
  // The states by name in the language shown; rebuilt when the language changes.
  const states = useMemo(() => stateOptions(language), [language]);

  function field(name: TextField, spec: FieldSpec) {
    const error = errors[name];
    const errorId = `${name}-error`;
    const onChange = (event: ChangeEvent<HTMLInputElement>) => {
      const raw = event.target.value;
      setForm((current) => editField(current, name, raw));
    };
    const common = {
      id: name,
      value: values[name],
      onChange,
      onBlur: () => setForm((current) => blurField(current, name)),
      placeholder: spec.placeholder,
      autoComplete: spec.autoComplete,
      maxLength: spec.maxLength,
      status: error ? ('error' as const) : undefined,
      'aria-invalid': error ? true : undefined,
      'aria-required': spec.required ? true : undefined,
      'aria-describedby': error ? errorId : undefined,
    };
    return (
      <Form.Item
        label={t(FIELD_LABELS[name])}
        htmlFor={name}
        required={spec.required}
        validateStatus={error ? 'error' : undefined}
        help={error ? <span id={errorId}>{messageText(error)}</span> : undefined}
        extra={spec.extra}
      >
        {spec.type === 'password' ? <Input.Password {...common} /> : spec.type === 'state'
          ? (
            <Select
              id={name}
              value={values[name] === '' ? undefined : values[name]}
              onChange={(code: string) => setForm((current) => editField(current, name, code))}
              onBlur={common.onBlur}
              options={states}
              showSearch={{
                filterOption: (typed, option) => option !== undefined && stateMatches(typed, option),
                filterSort: (a, b, info) => compareStates(a, b, info.searchValue),
              }}
              placeholder={spec.placeholder}
              status={common.status}
              aria-invalid={common['aria-invalid']}
              aria-required={common['aria-required']}
              aria-describedby={common['aria-describedby']}
              notFoundContent={t('register.noState')}
              popupMatchSelectWidth={false}
            />
          )
          : <Input {...common} type={spec.type ?? 'text'} />}
      </Form.Item>
    );
  }

  async function submit() {
    if (loading) return;
    // Every problem is shown at its field at once; the first in the form's order takes the focus and the toast.
    const check = checkAll(form);
    if (check) {
      setForm(check.state);
      toast.error(messageText(check.message));
      focusField(check.first);
      return;
    }
    setLoading(true);
    try {
      // The API's success message is, in English, the catalogue's text (tests/checks/i18n.test.ts).
      // The registration's e-mails are written in the language the form is shown in.
      await register({
        ...toRegistrationRequest(values),
        language: currentLanguage(),
        ...(invitation ? { userType: 'representative' as const, invitation: invitation.code } : {}),
      });
      toast.success(t('register.success'));
      // The form stays disabled until the redirect: nothing more to do here.
      redirectTimer.current = window.setTimeout(() => navigate(PATHS.login), REDIRECT_AFTER_MS);
    } catch (error) {
      const message = failureMessage(error, { failed: t('register.failed') });
      toast.error(message);
      setLoading(false);
      // A refusal about one field (a password the server finds too common) is shown at that field too.
      const field = refusedField(error instanceof ApiError ? error.code : null);
      if (field) {
        setForm((current) => ({ ...current, errors: { ...current.errors, [field]: message } }));
        setRefocus(field);
      }
    }
  }

  return (
    <AuthCard title={t('register.title')} className='register-card'>
      <LanguageSwitch className='auth-language' onChoose={chooseOnSignIn} />
      <Form layout='vertical' name='register' onFinish={submit} disabled={loading} noValidate>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {field('firstName', { required: true, autoComplete: 'given-name' })}
          </Col>
          <Col xs={24} md={12}>
            {field('lastName', { required: true, autoComplete: 'family-name' })}
          </Col>
        </Row>
        {field('email', { required: true, type: 'email', autoComplete: 'email' })}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {field('password', {
              required: true,
              type: 'password',
              autoComplete: 'new-password',
              extra: (
                <PasswordStrengthLabel
                  password={values.password}
                  owner={{ email: values.email, firstName: values.firstName, lastName: values.lastName }}
                />
              ),
            })}
          </Col>
          <Col xs={24} md={12}>
            {field('confirmPassword', {
              required: true,
              type: 'password',
              autoComplete: 'new-password',
            })}
          </Col>
        </Row>
        <Row gutter={16}>
          {!values.isRepresentative && <Col xs={24} md={8}>{field('barNumber', { required: true })}</Col>}
          <Col xs={24} md={values.isRepresentative ? 12 : 8}>
            {field('barState', {
              required: true,
              type: 'state',
              placeholder: t('register.barStatePlaceholder'),
              // A representative has no bar of their own: the state is their supervising attorney's.
              extra: values.isRepresentative ? t('register.representativeBarState') : undefined,
            })}
          </Col>
          <Col xs={24} md={values.isRepresentative ? 12 : 8}>
            {field('phone', { type: 'tel', autoComplete: 'tel' })}
          </Col>
        </Row>
        {invitation && (
          <Alert
            type='info'
            showIcon
            style={{ marginBottom: 24 }}
            title={t('register.invitedTitle')}
            description={t('register.invited')}
          />
        )}
        <Form.Item hidden={invitation !== null}>
          <Checkbox
            id='isRepresentative'
            checked={values.isRepresentative}
            onChange={(event) => {
              const checked = event.target.checked;
              setForm((current) => setRepresentative(current, checked));
            }}
          >
            {t('register.representative')}
          </Checkbox>
        </Form.Item>
        {values.isRepresentative && (
          <section aria-labelledby='supervising-heading' className='form-section'>
            <Typography.Title level={2} id='supervising-heading' className='section-heading'>
              {t('register.supervising')}
            </Typography.Title>
            <Typography.Paragraph type='secondary'>{t('register.representativeHint')}</Typography.Paragraph>
            {field('supervisingAttorneyName', { required: true })}
            <Row gutter={16}>
              <Col xs={24} md={12}>
                {field('supervisingAttorneyBar', {
                  required: true,
                })}
              </Col>
              <Col xs={24} md={12}>
                {field('supervisingAttorneyEmail', {
                  required: true,
                  type: 'email',
                })}
              </Col>
            </Row>
          </section>
        )}
        {field('addressLine1', {
          required: true,
          autoComplete: 'address-line1',
        })}
        {field('addressLine2', { autoComplete: 'address-line2' })}
        <Row gutter={16}>
          <Col xs={24} md={10}>
            {field('city', { required: true, autoComplete: 'address-level2' })}
          </Col>
          <Col xs={24} md={6}>
            {field('state', {
              required: true,
              type: 'state',
            })}
          </Col>
          <Col xs={24} md={8}>
            {field('zipCode', {
              required: true,
              placeholder: t('register.zipPlaceholder'),
              autoComplete: 'postal-code',
            })}
          </Col>
        </Row>
        <Form.Item>
          <Button type='primary' htmlType='submit' block loading={loading}>
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph className='auth-link'>
        <Link to={PATHS.login}>{t('register.back')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
