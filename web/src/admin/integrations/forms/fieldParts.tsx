import { Divider, Form, Typography } from 'antd';
import { keptHelp, SecretInput } from './SecretInput';

/** Every provider form names its fields under `config` (the values files read them from there). */
export const at = (name: string) => ['config', name];

/** A titled group of fields in a provider's form. */
export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" plain style={{ margin: '8px 0 12px' }}><Typography.Text strong>{title}</Typography.Text></Divider>
      {children}
    </>
  );
}

/** A secret under `config`: a stored one shows masked, with the help that says it is kept. */
export function SecretField({ name, label, required = false }: { name: string; label: string; required?: boolean }) {
  const value = Form.useWatch(at(name));
  return (
    <Form.Item name={at(name)} label={label} help={keptHelp(value)} required={required}>
      <SecretInput aria-label={label} />
    </Form.Item>
  );
}
