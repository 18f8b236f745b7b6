import { Input } from 'antd';
import type { InputProps } from 'antd';

/** What the server answers for a stored secret; sent back as it is, the server keeps the stored value. */
export const SECRET_MASK = '••••••••';

/** A password field for a secret: a stored one shows as the mask and is kept unless typed over. */
export function SecretInput(props: InputProps) {
  return <Input.Password autoComplete="new-password" visibilityToggle={props.value !== SECRET_MASK} {...props} />;
}

/** The help under a secret field while a stored value is kept. */
export const keptHelp = (value: unknown) => (value === SECRET_MASK ? 'Stored on the server: leave it as it is to keep it, or type a new one.' : undefined);
