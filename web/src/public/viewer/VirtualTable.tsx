import { ArrowDownOutlined, ArrowUpOutlined, SwapOutlined } from '@ant-design/icons';
import type { Table } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Tag, theme } from 'antd';
import { memo, useRef, type CSSProperties } from 'react';
import type { RecordDto } from '@common/schemas/record';
import { Cell, fieldValue, formatTimestamp } from '../cells';
import { LAST_UPDATED, type ColumnSpec } from './tableModel';
import { useKeyMappings } from './useKeyMappings';
import { useViewerStore } from './viewerStore';

const ROW_HEIGHT = 40;

const cellStyle = (width: number): CSSProperties => ({
  flex: `${width} 0 ${width}px`, minWidth: width, padding: '0 12px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap',
  display: 'flex', alignItems: 'center',
});

// Text-overflow needs a block box: a flex cell alone would cut text without the ellipsis.
const clip: CSSProperties = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 };

/** Header and virtualised body of the records table: only the rows in view are in the DOM. */
export function VirtualTable({ table, specs, rows, height }: { table: Table<RecordDto>; specs: ColumnSpec[]; rows: RecordDto[]; height?: number | string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const labels = useKeyMappings();
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const minWidth = specs.reduce((n, c) => n + c.width, 0);
  const bodyHeight = Math.max(rows.length, 0) * ROW_HEIGHT;

  return (
    <div
      ref={scrollRef}
      role="table"
      data-testid="records-table"
      style={{
        // As tall as the rows need, at most what fits the screen; the body scrolls inside.
        height: `min(${bodyHeight + ROW_HEIGHT + 6}px, ${height ?? `clamp(320px, calc(100vh - 240px), ${ROW_HEIGHT * 30}px)`})`,
        overflow: 'auto', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, background: token.colorBgContainer,
      }}
    >
      <div style={{ minWidth }}>
        <div role="row" style={{ display: 'flex', position: 'sticky', top: 0, zIndex: 1, height: ROW_HEIGHT + 4, background: token.colorFillAlter, borderBottom: `1px solid ${token.colorBorderSecondary}`, fontWeight: 600 }}>
          {table.getFlatHeaders().map((h, i) => {
            const spec = specs[i];
            const sorted = h.column.getIsSorted();
            const canSort = h.column.getCanSort();
            const toggle = canSort ? h.column.getToggleSortingHandler() : undefined;
            return (
              <div
                key={h.id}
                role="columnheader"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                // Sortable headers are reached with Tab and toggled with Enter or Space, like a button.
                tabIndex={canSort ? 0 : undefined}
                onClick={toggle}
                onKeyDown={toggle && ((e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault();
                  toggle(e);
                })}
                style={{ ...cellStyle(spec.width), gap: 6, cursor: canSort ? 'pointer' : 'default', userSelect: 'none', outlineOffset: -3 }}
                title={spec.field === LAST_UPDATED ? 'Last Updated' : spec.field}
              >
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{spec.field === LAST_UPDATED ? 'Last Updated' : (labels[spec.field] ?? spec.field)}</span>
                {spec.extra && <Tag style={{ marginInlineEnd: 0 }}>Extra</Tag>}
                {canSort && (sorted === 'asc' ? <ArrowUpOutlined /> : sorted === 'desc' ? <ArrowDownOutlined /> : <SwapOutlined rotate={90} style={{ opacity: 0.3 }} />)}
              </div>
            );
          })}
        </div>
        <div style={{ position: 'relative', height: bodyHeight }}>
          {virtualizer.getVirtualItems().map((v) => (
            <RecordRow key={rows[v.index].recordId} recordId={rows[v.index].recordId} specs={specs} top={v.start} odd={v.index % 2 === 1} />
          ))}
        </div>
      </div>
    </div>
  );
}

/** One row; it selects its own record, so a pushed change to another record does not re-render it. */
const RecordRow = memo(function RecordRow({ recordId, specs, top, odd }: { recordId: string; specs: ColumnSpec[]; top: number; odd: boolean }) {
  const record = useViewerStore((s) => s.records.get(recordId));
  const { token } = theme.useToken();
  if (!record) return null;
  return (
    <div
      role="row"
      data-testid="table-row"
      data-record-id={recordId}
      style={{
        display: 'flex', position: 'absolute', left: 0, right: 0, top: 0, height: ROW_HEIGHT, transform: `translateY(${top}px)`,
        borderBottom: `1px solid ${token.colorBorderSecondary}`, background: odd ? token.colorFillQuaternary : undefined,
      }}
    >
      {specs.map((c) => (
        <div key={c.field} role="cell" style={cellStyle(c.width)}>
          <span style={clip}>{c.field === LAST_UPDATED ? formatTimestamp(record.lastUpdated) : <Cell field={c.field} value={fieldValue(record, c.field)} />}</span>
        </div>
      ))}
    </div>
  );
});
