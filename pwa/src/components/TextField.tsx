/**
 * A labelled text field with its validation message, in plain markup (the light screens of the tablet's path:
 * sign-in, the lock screen). The message is tied to the field (aria-describedby, aria-invalid) and announced
 * when it appears.
 */
import type { InputHTMLAttributes } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  error?: string | null;
}

export function TextField({ id, label, error, className, ...input }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label className='field-label' htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        className={className ? `input ${className}` : 'input'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && <div id={errorId} className='field-error' role='alert'>{error}</div>}
    </div>
  );
}

/** The required-field rule of the forms (antd's `required` with `whitespace`): blank or spaces only fails. */
export function requiredError(value: string, message: string): string | null {
  return value.trim() === '' ? message : null;
}
