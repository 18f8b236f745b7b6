import { Button, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { copyText, useToast } from '../ui/toast';

/** A code sample with a copy button ("Copied: Code copied to clipboard"). */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const toast = useToast();
  return (
    <div style={{ position: 'relative' }}>
      {/* Focusable: a keyboard can scroll a long sample. */}
      <pre
        tabIndex={0}
        data-testid="code-block"
        style={{ background: '#0f172a', color: '#e2e8f0', padding: '12px 48px 12px 12px', borderRadius: 8, overflow: 'auto', fontSize: 12, margin: 0, maxHeight: 360 }}
      >
        {code}
      </pre>
      <Tooltip title={`Copy ${label}`}>
        <Button
          size="small"
          aria-label={`Copy ${label}`}
          icon={<CopyOutlined />}
          style={{ position: 'absolute', top: 8, right: 8 }}
          onClick={async () => {
            await copyText(code);
            toast.success('Copied', 'Code copied to clipboard');
          }}
        />
      </Tooltip>
    </div>
  );
}
