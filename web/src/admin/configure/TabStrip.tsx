import { App, Button, Flex, Input, Tooltip } from 'antd';
import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useRef, useState } from 'react';
import type { DashboardTab } from '@common/schemas/dashboard';
import { useReportUnsaved } from './unsavedEdits';

interface Props {
  tabs: DashboardTab[];
  activeId: string | null;
  onSelect(id: string): void;
  onRename(id: string, name: string): void;
  onDelete(id: string): void;
  onAdd(): void;
}

/**
 * Tab name input, saved as every other edit of the editor is: Enter (or ✓) saves the name, Escape
 * (or ✕) cancels; a name typed and left is an unsaved edit, which every way out asks about.
 */
function RenameInput({ tabId, initial, onDone }: { tabId: string; initial: string; onDone(name: string | null): void }) {
  const [value, setValue] = useState(initial);
  const dirty = value.trim() !== initial && value.trim() !== '';
  useReportUnsaved(`${tabId}:name`, initial, dirty, () => onDone(null));
  // Enter and Escape end the edit; the blur that follows must not end it a second time.
  const ended = useRef(false);
  const end = (name: string | null) => {
    if (ended.current) return;
    ended.current = true;
    onDone(name);
  };
  return (
    <Flex align="center" gap={2}>
      <Input
        size="small"
        autoFocus
        aria-label="Tab name"
        value={value}
        style={{ width: 140 }}
        status={dirty ? 'warning' : undefined}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') end(value.trim() || null);
          if (e.key === 'Escape') {
            e.preventDefault();
            end(null);
          }
        }}
      />
      <Tooltip title="Save name (Enter)">
        <Button size="small" type="text" aria-label="Save the name" icon={<CheckOutlined />} onClick={() => end(value.trim() || null)} />
      </Tooltip>
      <Tooltip title="Cancel (Escape)">
        <Button size="small" type="text" aria-label="Cancel renaming" icon={<CloseOutlined />} onClick={() => end(null)} />
      </Tooltip>
    </Flex>
  );
}

const tabDomId = (id: string) => `config-tab-${id}`;

/** The editor's tab strip: select, rename (Enter or ✓ saves, Escape or ✕ cancels), delete with confirmation, Add Tab. */
export function TabStrip({ tabs, activeId, onSelect, onRename, onDelete, onAdd }: Props) {
  const { modal } = App.useApp();
  const [renaming, setRenaming] = useState<string | null>(null);

  const confirmDelete = (tab: DashboardTab) =>
    modal.confirm({
      title: 'Delete Tab',
      content: 'Are you sure you want to delete this tab? This action cannot be undone.',
      okText: 'Delete Tab',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => onDelete(tab.id),
    });

  return (
    <Flex gap={6} wrap align="center" data-testid="tab-strip">
      {/* The tabs sit among their rename and delete buttons; the tab list owns only the tabs. */}
      <span role="tablist" aria-label="Dashboard tabs" aria-owns={tabs.map((t) => tabDomId(t.id)).join(' ')} />
      {tabs.map((t) => {
        const active = t.id === activeId;
        return (
          <Flex
            key={t.id}
            align="center"
            gap={2}
            data-testid="config-tab"
            data-tab-id={t.id}
            style={{
              border: `1px solid ${active ? '#2563eb' : '#d9d9d9'}`,
              background: active ? '#eff4ff' : '#fff',
              borderRadius: 8,
              padding: '2px 4px 2px 10px',
            }}
          >
            {renaming === t.id ? (
              <RenameInput
                tabId={t.id}
                initial={t.name}
                onDone={(name) => {
                  setRenaming(null);
                  if (name && name !== t.name) onRename(t.id, name);
                }}
              />
            ) : (
              <span
                role="tab"
                id={tabDomId(t.id)}
                aria-selected={active}
                tabIndex={0}
                style={{ cursor: 'pointer', fontWeight: active ? 600 : 400 }}
                onClick={() => onSelect(t.id)}
                onDoubleClick={() => setRenaming(t.id)}
                onKeyDown={(e) => e.key === 'Enter' && onSelect(t.id)}
              >
                {t.name}
              </span>
            )}
            <Tooltip title="Rename tab">
              <Button size="small" type="text" aria-label={`Rename ${t.name}`} icon={<EditOutlined />} onClick={() => setRenaming(t.id)} />
            </Tooltip>
            <Tooltip title="Delete tab">
              <Button size="small" type="text" danger aria-label={`Delete ${t.name}`} icon={<DeleteOutlined />} onClick={() => confirmDelete(t)} />
            </Tooltip>
          </Flex>
        );
      })}
      <Button icon={<PlusOutlined />} onClick={onAdd}>Add Tab</Button>
    </Flex>
  );
}
