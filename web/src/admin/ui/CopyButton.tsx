import { Button, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { copyText, useToast } from './toast';

/** A small copy button: copies `text` and says so in a toast ("<What> copied to clipboard"). */
export function CopyButton({ text, what, label, tip }: { text: string; what: string; label: string; tip?: string }) {
  const toast = useToast();
  return (
    <Tooltip title={tip ?? label}>
      <Button
        size="small"
        type="text"
        aria-label={label}
        icon={<CopyOutlined />}
        onClick={async () => {
          await copyText(text);
          toast.success(`${what} copied to clipboard`);
        }}
      />
    </Tooltip>
  );
}
