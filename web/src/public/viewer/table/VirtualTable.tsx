import { ArrowDownOutlined, ArrowUpOutlined, SwapOutlined } from '@ant-design/icons';
import type { Table } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Tag, theme } from 'antd';
import { memo, useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { fieldLabel } from '@common/formats';
import type { RecordDto } from '@common/schemas/records/record';
import { Cell, fieldValue, formatTimestamp } from '../../cells';
import { LAST_UPDATED, specFormat, type ColumnSpec } from './tableModel';
import { useFeedRecord, useWidgetEnv } from '../widgets/widgetContext';
import { useTvPaging } from '../tv/useTvPaging';

const ROW_HEIGHT = 40;

const cellStyle = (width: number): CSSProperties => ({
  flex: `${width} 0 ${width}px`, minWidth: width, padding: '0 12px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap',
  display: 'flex', alignItems: 'center',
});

/** The first column stays put while the table scrolls sideways; an opaque background hides what passes under it. */
const stickyStyle = (background: string, shadow: boolean): CSSProperties => ({
  position: 'sticky', left: 0, zIndex: 1, background,
  boxShadow: shadow ? '6px 0 6px -4px rgba(0, 0, 0, 0.15)' : undefined,
});

/** Whether the table can scroll further left or right: drawn as edge shadows and a hint. */
function useSideScroll(ref: React.RefObject<HTMLDivElement | null>) {
  const [state, setState] = useState({ left: false, right: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const left = el.scrollLeft > 0;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setState((s) => (s.left === left && s.right === right ? s : { left, right }));
  }, [ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, [ref, update]);
  return { ...state, onScroll: update };
}

// Text-overflow needs a block box: a flex cell alone would cut text without the ellipsis.
const clip: CSSProperties = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 };

/** Header and virtualised body of the records table: only the rows in view are in the DOM. */
export function VirtualTable({ table, specs, rows, height }: { table: Table<RecordDto>; specs: ColumnSpec[]; rows: RecordDto[]; height?: number | string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const labels = useWidgetEnv().keyMappings;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const minWidth = specs.reduce((n, c) => n + c.width, 0);
  const bodyHeight = Math.max(rows.length, 0) * ROW_HEIGHT;
  const side = useSideScroll(scrollRef);
  useTvPaging(scrollRef);
  const headerBg = token.colorFillAlter;

  return (
    <div style={{ position: 'relative' }}>
      <div
        ref={scrollRef}
        role="table"
        data-testid="records-table"
        data-scroll-right={side.right}
        onScroll={side.onScroll}
        style={{
          // As tall as the rows need, at most what fits the screen; the body scrolls inside.
          height: `min(${bodyHeight + ROW_HEIGHT + 6}px, ${height ?? `clamp(320px, calc(100vh - 240px), ${ROW_HEIGHT * 30}px)`})`,
          overflow: 'auto', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, background: token.colorBgContainer,
        }}
      >
        <div style={{ minWidth }}>
          <div role="row" style={{ display: 'flex', position: 'sticky', top: 0, zIndex: 2, height: ROW_HEIGHT + 4, background: `linear-gradient(${headerBg}, ${headerBg}), ${token.colorBgContainer}`, borderBottom: `1px solid ${token.colorBorderSecondary}`, fontWeight: 600 }}>
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
                  style={{
                    ...cellStyle(spec.width), gap: 6, cursor: canSort ? 'pointer' : 'default', userSelect: 'none', outlineOffset: -3,
                    ...(i === 0 ? stickyStyle(`linear-gradient(${headerBg}, ${headerBg}), ${token.colorBgContainer}`, side.left) : null),
                  }}
                  title={spec.field === LAST_UPDATED ? 'Last Updated' : `${fieldLabel(spec.field, labels)} (${spec.field})`}
                >
                  <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{spec.field === LAST_UPDATED ? 'Last Updated' : fieldLabel(spec.field, labels)}</span>
                  {spec.extra && <Tag style={{ marginInlineEnd: 0 }}>Extra</Tag>}
                  {canSort && (sorted === 'asc' ? <ArrowUpOutlined /> : sorted === 'desc' ? <ArrowDownOutlined /> : <SwapOutlined rotate={90} style={{ opacity: 0.3 }} />)}
                </div>
              );
            })}
          </div>
          <div style={{ position: 'relative', height: bodyHeight }}>
            {virtualizer.getVirtualItems().map((v) => (
              <RecordRow key={rows[v.index].recordId} recordId={rows[v.index].recordId} specs={specs} top={v.start} odd={v.index % 2 === 1} shadow={side.left} />
            ))}
          </div>
        </div>
      </div>
      {side.right && (
        // The sideways-scroll affordance: the last columns fade out at the right edge.
        <div
          aria-hidden
          data-testid="scroll-hint-right"
          style={{
            position: 'absolute', top: 1, right: 1, bottom: 1, width: 32, pointerEvents: 'none', borderRadius: `0 ${token.borderRadiusLG}px ${token.borderRadiusLG}px 0`,
            background: `linear-gradient(to right, transparent, ${token.colorBgContainer})`, boxShadow: 'inset -6px 0 6px -4px rgba(0, 0, 0, 0.15)',
          }}
        />
      )}
    </div>
  );
}

/** One row; it selects its own record, so a pushed change to another record does not re-render it. */
const RecordRow = memo(function RecordRow({ recordId, specs, top, odd, shadow }: { recordId: string; specs: ColumnSpec[]; top: number; odd: boolean; shadow: boolean }) {
  const record = useFeedRecord(recordId);
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
      {specs.map((c, i) => (
        <div
          key={c.field}
          role="cell"
          style={i === 0 ? { ...cellStyle(c.width), ...stickyStyle(odd ? `linear-gradient(${token.colorFillQuaternary}, ${token.colorFillQuaternary}), ${token.colorBgContainer}` : token.colorBgContainer, shadow) } : cellStyle(c.width)}
        >
          <span style={clip}>
            {c.field === LAST_UPDATED
              ? <span title={record.lastUpdated}>{formatTimestamp(record.lastUpdated)}</span>
              : <Cell field={c.field} value={fieldValue(record, c.field)} format={specFormat(c)} />}
          </span>
        </div>
      ))}
    </div>
  );
});
