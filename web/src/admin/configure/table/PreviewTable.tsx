import { Skeleton, Typography } from 'antd';
import {
  closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent,
} from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { restrictToHorizontal } from './restrictToHorizontal';
import type { TableColumn } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import { typedFormat, type FieldTyping } from '@common/types/fieldTyping';
import { FormattedValue, fieldValue } from '../../ui/cells';
import { SECONDARY_TEXT } from '../../ui/States';
import { ColumnHeader } from './ColumnHeader';
import { moveColumn } from './columns';

interface Props {
  columns: TableColumn[];
  records: RecordDto[];
  editing: boolean;
  loading: boolean;
  labelOf(name: string): string;
  /** The source's type model: how each field's values read. */
  typing?: FieldTyping;
  onChange(columns: TableColumn[]): void;
}

/** The table preview with sortable, resizable headers (dnd-kit, mouse and keyboard). */
export function PreviewTable({ columns, records, editing, loading, labelOf, typing, onChange }: Props) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = columns.findIndex((c) => c.name === active.id);
    const to = columns.findIndex((c) => c.name === over.id);
    if (from >= 0 && to >= 0) onChange(moveColumn(columns, from, to));
  };
  const patch = (name: string, p: Partial<TableColumn>) => onChange(columns.map((c) => (c.name === name ? { ...c, ...p } : c)));

  if (loading) return <Skeleton active />;
  if (columns.length === 0) {
    return <Typography.Paragraph type="secondary">No columns: ingest records into the data source first.</Typography.Paragraph>;
  }
  return (
    <div style={{ overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 8 }}>
      <DndContext sensors={sensors} collisionDetection={closestCenter} modifiers={[restrictToHorizontal]} onDragEnd={onDragEnd}>
        <table style={{ borderCollapse: 'collapse', tableLayout: 'fixed', width: columns.reduce((w, c) => w + c.width, 0) }} data-testid="preview-table">
          <thead>
            <tr>
              <SortableContext items={columns.map((c) => c.name)} strategy={horizontalListSortingStrategy}>
                {columns.map((c) => (
                  <ColumnHeader
                    key={c.name}
                    column={c}
                    label={labelOf(c.name)}
                    editing={editing}
                    onResize={(width) => patch(c.name, { width })}
                    onToggle={(visible) => patch(c.name, { visible })}
                    onRemove={() => onChange(columns.filter((x) => x.name !== c.name))}
                  />
                ))}
              </SortableContext>
            </tr>
          </thead>
          <tbody>
            {records.length === 0 && (
              <tr><td colSpan={columns.length} style={{ padding: 16, textAlign: 'center', color: SECONDARY_TEXT }}>No records available</td></tr>
            )}
            {records.map((r) => (
              <tr key={r.id}>
                {columns.map((c) => (
                  <td
                    key={c.name}
                    style={{
                      width: c.width, maxWidth: c.width, padding: '6px 10px', borderBottom: '1px solid #f5f5f5', borderRight: '1px solid #f5f5f5',
                      opacity: c.visible ? 1 : 0.4, overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'top', wordBreak: 'break-word',
                    }}
                  >
                    <FormattedValue field={c.name} value={fieldValue(r.data, c.name)} column={typedFormat(typing, c.name, c)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </DndContext>
    </div>
  );
}
