/**
 * /register, 'Attorney Registration' (spec sections 2, 4, 5, 8). The form's
 * behaviour lives in registrationForm.ts; this file renders it.
 */
import { Button, Checkbox, Col, Form, Input, Row, Typography } from 'antd';
import { type ChangeEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { PasswordStrengthLabel } from './PasswordStrengthLabel.tsx';
import { useToast } from '../components/useToast.ts';
import { ApiError, failureMessage } from '../lib/api.ts';
import { register } from './authApi.ts';
import {
  blurField,
  checkForSubmit,
  editField,
  EMPTY_REGISTRATION,
  type FormState,
  markMissing,
  refusedField,
  type RegistrationField,
  setRepresentative,
  type TextField,
  toRegistrationRequest,
} from './registrationForm.ts';
import { PATHS } from '../lib/routing.ts';

export const REGISTER_TEXTS = {
  title: 'Attorney Registration',
  submit: 'Register Attorney Account',
  back: '← Back to Login',
  representative: 'I am an Authorized Representative',
  supervising: 'Supervising Attorney Information',
  success: 'Registration submitted successfully! You will receive an email once approved.',
  failed: 'Registration failed. Please try again.',
} as const;

/** Spec section 9: redirect to /login 2000 ms after a successful registration. */
const REDIRECT_AFTER_MS = 2000;

interface FieldSpec {
  label: string;
  required?: boolean;
  type?: 'text' | 'email' | 'password' | 'tel';
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  extra?: ReactNode;
}

function focusField(field: RegistrationField) {
  const element = document.getElementById(field);
  element?.focus();
  element?.scrollIntoView?.({ block: 'center' });
}

export function Register() {
  const [form, setForm] = useState<FormState>({ values: EMPTY_REGISTRATION, errors: {} });
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
        label={spec.label}
        htmlFor={name}
        required={spec.required}
        validateStatus={error ? 'error' : undefined}
        help={error ? <span id={errorId}>{error}</span> : undefined}
        extra={spec.extra}
      >
        {spec.type === 'password'
          ? <Input.Password {...common} />
          : <Input {...common} type={spec.type ?? 'text'} />}
      </Form.Item>
    );
  }

  async function submit() {
    if (loading) return;
    const missing = markMissing(form);
    if (missing) {
      setForm(missing.state);
      toast.error(missing.state.errors[missing.first] ?? '');
      focusField(missing.first);
      return;
    }
    const check = checkForSubmit(values);
    if (!check.ok) {
      setForm((current) => ({ ...current, errors: { ...current.errors, [check.field]: check.message } }));
      toast.error(check.message);
      focusField(check.field);
      return;
    }
    setLoading(true);
    try {
      const message = await register(toRegistrationRequest(values));
      toast.success(message ?? REGISTER_TEXTS.success);
      // The form stays disabled until the redirect: nothing more to do here.
      redirectTimer.current = window.setTimeout(() => navigate(PATHS.login), REDIRECT_AFTER_MS);
    } catch (error) {
      const message = failureMessage(error, { failed: REGISTER_TEXTS.failed });
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
    <AuthCard title={REGISTER_TEXTS.title} className='register-card'>
      <Form layout='vertical' name='register' onFinish={submit} disabled={loading} noValidate>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {field('firstName', { label: 'First Name', required: true, autoComplete: 'given-name' })}
          </Col>
          <Col xs={24} md={12}>
            {field('lastName', { label: 'Last Name', required: true, autoComplete: 'family-name' })}
          </Col>
        </Row>
        {field('email', { label: 'Email', required: true, type: 'email', autoComplete: 'email' })}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {field('password', {
              label: 'Password',
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
              label: 'Confirm Password',
              required: true,
              type: 'password',
              autoComplete: 'new-password',
            })}
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={8}>{field('barNumber', { label: 'Bar Number', required: true })}</Col>
          <Col xs={24} md={8}>
            {field('barState', { label: 'Bar State', required: true, placeholder: 'MO', maxLength: 2 })}
          </Col>
          <Col xs={24} md={8}>
            {field('phone', { label: 'Phone (optional)', type: 'tel', autoComplete: 'tel' })}
          </Col>
        </Row>
        <Form.Item>
          <Checkbox
            id='isRepresentative'
            checked={values.isRepresentative}
            onChange={(event) => {
              const checked = event.target.checked;
              setForm((current) => setRepresentative(current, checked));
            }}
          >
            {REGISTER_TEXTS.representative}
          </Checkbox>
        </Form.Item>
        {values.isRepresentative && (
          <section aria-labelledby='supervising-heading' className='form-section'>
            <Typography.Title level={2} id='supervising-heading' className='section-heading'>
              {REGISTER_TEXTS.supervising}
            </Typography.Title>
            {field('supervisingAttorneyName', { label: 'Supervising Attorney Name', required: true })}
            <Row gutter={16}>
              <Col xs={24} md={12}>
                {field('supervisingAttorneyBar', {
                  label: 'Supervising Attorney Bar Number',
                  required: true,
                })}
              </Col>
              <Col xs={24} md={12}>
                {field('supervisingAttorneyEmail', {
                  label: 'Supervising Attorney Email',
                  required: true,
                  type: 'email',
                })}
              </Col>
            </Row>
          </section>
        )}
        {field('addressLine1', {
          label: 'Address Line 1',
          required: true,
          autoComplete: 'address-line1',
        })}
        {field('addressLine2', { label: 'Address Line 2 (optional)', autoComplete: 'address-line2' })}
        <Row gutter={16}>
          <Col xs={24} md={10}>
            {field('city', { label: 'City', required: true, autoComplete: 'address-level2' })}
          </Col>
          <Col xs={24} md={6}>
            {field('state', {
              label: 'State',
              required: true,
              maxLength: 2,
              autoComplete: 'address-level1',
            })}
          </Col>
          <Col xs={24} md={8}>
            {field('zipCode', {
              label: 'ZIP Code',
              required: true,
              placeholder: '12345 or 12345-6789',
              autoComplete: 'postal-code',
            })}
          </Col>
        </Row>
        <Form.Item>
          <Button type='primary' htmlType='submit' block loading={loading}>
            {REGISTER_TEXTS.submit}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph className='auth-link'>
        <Link to={PATHS.login}>{REGISTER_TEXTS.back}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
