import { useEffect, useState } from 'react';
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Tag } from 'antd';
import { VERSION_MESSAGE_MAX } from '@common/schemas/dashboard';

/**
 * The Save of every Configure editor: "Unsaved changes", what the change is for (optional, kept with
 * its version in the history, as a commit message is), Discard changes and Save, the same everywhere.
 * The words stay until the save lands: a refused save keeps them for the next try.
 */
export function SaveBar({ dirty, saving, onSave, onDiscard, saveLabel = 'Save Changes' }: {
  dirty: boolean; saving: boolean; onSave(message?: string): void; onDiscard(): void; saveLabel?: string;
}) {
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!dirty) setMessage('');
  }, [dirty]);
  const save = () => onSave(message.trim() || undefined);
  return (
    <Flex gap={8} align="center" wrap data-testid="save-bar">
      {dirty && <Tag color="orange" style={{ marginInlineEnd: 0 }}>Unsaved changes</Tag>}
      {dirty && (
        <Input
          aria-label="What changed (optional)"
          placeholder="What changed? (optional)"
          value={message}
          maxLength={VERSION_MESSAGE_MAX}
          onChange={(e) => setMessage(e.target.value)}
          onPressEnter={save}
          style={{ width: 220 }}
          data-testid="save-message"
        />
      )}
      <Button icon={<UndoOutlined />} onClick={onDiscard} disabled={!dirty}>Discard changes</Button>
      <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save} disabled={!dirty}>{saveLabel}</Button>
    </Flex>
  );
}
