import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Flex, Tag } from 'antd';

/** The Save of every Configure editor: "Unsaved changes", Discard changes and Save, the same everywhere. */
export function SaveBar({ dirty, saving, onSave, onDiscard, saveLabel = 'Save Changes' }: {
  dirty: boolean; saving: boolean; onSave(): void; onDiscard(): void; saveLabel?: string;
}) {
  return (
    <Flex gap={8} align="center" wrap data-testid="save-bar">
      {dirty && <Tag color="orange" style={{ marginInlineEnd: 0 }}>Unsaved changes</Tag>}
      <Button icon={<UndoOutlined />} onClick={onDiscard} disabled={!dirty}>Discard changes</Button>
      <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={onSave} disabled={!dirty}>{saveLabel}</Button>
    </Flex>
  );
}
