/**
 * The live password-strength label (spec section 4's Weak, Medium, Strong), announced politely to screen
 * readers. It reads the server's own judgement (usePasswordStrength.ts): Weak is what the server would refuse.
 */
import { Typography } from 'antd';
import type { PasswordOwner } from '../../../contract/rules/password_score.ts';
import { STRENGTH_COLOURS } from './passwordForm.ts';
import { usePasswordStrength } from './usePasswordStrength.ts';

export function PasswordStrengthLabel(
  { password, id, owner }: { password: string; id?: string; owner?: PasswordOwner },
) {
  const strength = usePasswordStrength(password, owner);
  return (
    <div id={id} aria-live='polite' className='strength-row'>
      {strength && (
        <Typography.Text>
          Password strength:{' '}
          <span className='strength-label' data-strength={strength} style={STRENGTH_COLOURS[strength]}>
            {strength}
          </span>
        </Typography.Text>
      )}
    </div>
  );
}
