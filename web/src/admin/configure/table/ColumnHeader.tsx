import { Button, Checkbox, Tooltip } from 'antd';
import { CloseOutlined, HolderOutlined } from '@ant-design/icons';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { TableColumn } from '@common/schemas/dashboard';
import { clampWidth } from './columns';

interface Props {
  column: TableColumn;
  label: string;
  editing: boolean;
  onResize(width: number): void;
  onToggle(visible: boolean): void;
  onRemove(): void;
}

/** A table-style column header: drag handle (mouse or keyboard), visible flag, remove and resize. */
export function ColumnHeader({ column, label, editing, onResize, onToggle, onRemove }: Props) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: column.name, disabled: !editing });

  const startResize = (e: React.PointerEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startWidth = column.width;
    const move = (ev: PointerEvent) => onResize(clampWidth(startWidth + ev.clientX - startX));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  return (
    <th
      ref={setNodeRef}
      data-testid="column-header"
      data-column={column.name}
      data-width={column.width}
      data-visible={column.visible}
      style={{
        width: column.width,
        minWidth: column.width,
        maxWidth: column.width,
        position: 'relative',
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: column.visible ? 1 : 0.4,
        background: isDragging ? '#dbe6ff' : '#fafafa',
        zIndex: isDragging ? 2 : undefined,
        padding: '6px 10px 6px 6px',
        borderBottom: '1px solid #f0f0f0',
        borderRight: '1px solid #f0f0f0',
        textAlign: 'left',
        fontWeight: 600,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
      }}
    >
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%' }}>
        {editing && (
          <span
            {...attributes}
            {...listeners}
            aria-label={`Drag ${label} to reorder (Space, then arrow keys)`}
            data-testid="drag-handle"
            style={{ cursor: 'grab', color: '#64748b', touchAction: 'none' }}
          >
            <HolderOutlined />
          </span>
        )}
        {editing && (
          <Tooltip title={column.visible ? 'Visible (click to hide)' : 'Hidden (click to show)'}>
            <Checkbox checked={column.visible} onChange={(e) => onToggle(e.target.checked)} aria-label={`Visible ${label}`} />
          </Tooltip>
        )}
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={column.name}>{label}</span>
        {editing && (
          <Button size="small" type="text" aria-label={`Remove column ${label}`} icon={<CloseOutlined style={{ fontSize: 10 }} />} onClick={onRemove} />
        )}
      </span>
      {editing && (
        <span
          role="separator"
          aria-orientation="vertical"
          aria-label={`Resize ${label}`}
          aria-valuenow={column.width}
          tabIndex={0}
          data-testid="resize-handle"
          onPointerDown={startResize}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') onResize(clampWidth(column.width + 10));
            if (e.key === 'ArrowLeft') onResize(clampWidth(column.width - 10));
          }}
          style={{ position: 'absolute', top: 0, right: 0, width: 8, height: '100%', cursor: 'col-resize', background: 'rgba(37,99,235,0.25)', touchAction: 'none' }}
        />
      )}
    </th>
  );
}
