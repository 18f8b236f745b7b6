import { CopyOutlined, DeleteOutlined, DragOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Popconfirm, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import ReactGridLayout, { cloneLayout, moveElement, useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { Widget } from '@common/schemas/dashboard';
import { GRID_COLUMNS, GRID_ROW_HEIGHT, type WidgetLayout } from '@common/schemas/widgets/widget';
import { placeWidgets, readingOrder } from '@common/widgets/layout';
import { rowsHeight } from '../../public/viewer/widgets/WidgetGrid';
import { SR_ONLY } from '../../public/srOnly';

const STEP: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** A layout moved (or, with `resize`, resized) one cell by an arrow key, kept inside the 12 columns. */
export function nudge(l: WidgetLayout, key: string, resize: boolean): WidgetLayout {
  const [dx, dy] = STEP[key] ?? [0, 0];
  if (resize) {
    const w = Math.min(GRID_COLUMNS - l.x, Math.max(1, l.w + dx));
    return { ...l, w, h: Math.min(40, Math.max(1, l.h + dy)) };
  }
  return { ...l, x: Math.min(GRID_COLUMNS - l.w, Math.max(0, l.x + dx)), y: Math.max(0, l.y + dy) };
}

/**
 * The builder's grid: widgets dragged by their handle and resized from the corner (react-grid-layout),
 * or from the keyboard: focus a widget's move handle, arrows move it, Shift+arrows resize it.
 */
export function BuilderGrid({ widgets, render, onLayout, onEdit, onDuplicate, onRemove }: {
  widgets: Widget[];
  render(widget: Widget): React.ReactNode;
  onLayout(layouts: Record<string, WidgetLayout>): void;
  onEdit(id: string): void;
  onDuplicate(id: string): void;
  onRemove(id: string): void;
}) {
  const { token } = theme.useToken();
  const { width, containerRef, mounted } = useContainerWidth();
  // On a phone, as on the viewer: one widget per row in reading order, each its own height (12
  // columns of 30 px put numbers over titles); the layout is edited on a wider screen.
  const narrow = Grid.useBreakpoint().md === false;
  const [announce, setAnnounce] = useState('');
  const placed = placeWidgets(widgets);
  const layout: Layout = placed.map((w) => ({ i: w.id, ...w.layout, minW: 1, minH: w.type === 'kpi' ? 2 : 3 }));

  const fromGrid = (next: Layout) => {
    const out: Record<string, WidgetLayout> = {};
    for (const l of next) out[l.i] = { x: l.x, y: l.y, w: l.w, h: l.h };
    const changed = placed.some((w) => {
      const n = out[w.id];
      return !n || n.x !== w.layout.x || n.y !== w.layout.y || n.w !== w.layout.w || n.h !== w.layout.h;
    });
    if (changed) onLayout(out);
  };

  // Arrow keys move the widget the way a drag would (pushing others aside), Shift+arrows resize it;
  // the grid is then compacted upwards as after a drag.
  const onKey = (w: (typeof placed)[number], e: React.KeyboardEvent) => {
    if (!STEP[e.key]) return;
    e.preventDefault();
    const next = nudge(w.layout, e.key, e.shiftKey);
    const items = cloneLayout(layout);
    const item = items.find((l) => l.i === w.id)!;
    let moved: Layout;
    if (e.shiftKey) {
      item.w = next.w;
      item.h = next.h;
      moved = items;
    } else {
      moved = moveElement(items, item, next.x, next.y, true, false, 'vertical', GRID_COLUMNS);
    }
    const compacted = verticalCompactor.compact(moved, GRID_COLUMNS);
    fromGrid(compacted);
    const at = compacted.find((l) => l.i === w.id)!;
    setAnnounce(`${w.name || w.id}: column ${at.x + 1}, row ${at.y + 1}, ${at.w} wide, ${at.h} high`);
  };

  const toolbar = (w: (typeof placed)[number]) => (
    <Flex align="center" gap={4} style={{ padding: '2px 4px', background: token.colorBgContainer, borderRadius: `${token.borderRadius}px ${token.borderRadius}px 0 0`, border: `1px solid ${token.colorBorderSecondary}`, borderBottom: 'none' }}>
      <Tooltip title="Drag to move; or focus and use the arrow keys (Shift+arrows resize)">
        <Button className="widget-drag-handle" size="small" type="text" icon={<DragOutlined />} aria-label={`Move ${w.name || w.id}`} style={{ cursor: 'move' }} onKeyDown={(e) => onKey(w, e)} />
      </Tooltip>
      <Typography.Text type="secondary" ellipsis style={{ flex: 1, fontSize: 12 }}>{w.visible === false ? 'Hidden' : ''}</Typography.Text>
      <Button size="small" type="text" icon={<EditOutlined />} aria-label={`Edit ${w.name || w.id}`} onClick={() => onEdit(w.id)} />
      <Button size="small" type="text" icon={<CopyOutlined />} aria-label={`Duplicate ${w.name || w.id}`} onClick={() => onDuplicate(w.id)} />
      <Popconfirm title="Remove widget" description={`Remove "${w.name || w.id}" from this tab?`} okText="Remove" okButtonProps={{ danger: true }} onConfirm={() => onRemove(w.id)}>
        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`Remove ${w.name || w.id}`} />
      </Popconfirm>
    </Flex>
  );

  return (
    <div ref={containerRef} data-testid="builder-grid" style={{ background: token.colorFillQuaternary, borderRadius: token.borderRadiusLG, minHeight: 200 }}>
      <div aria-live="polite" data-testid="grid-announce" style={SR_ONLY}>{announce}</div>
      {narrow && (
        <Flex vertical gap={16}>
          {readingOrder(placed).map((w) => (
            <div key={w.id} data-testid="builder-widget" data-widget-id={w.id} style={{ display: 'flex', flexDirection: 'column', height: rowsHeight(Math.max(w.layout.h, w.type === 'kpi' ? 2 : 4)) + 32 }}>
              {toolbar(w)}
              <div style={{ flex: 1, minHeight: 0, opacity: w.visible === false ? 0.5 : 1 }}>{render(w)}</div>
            </div>
          ))}
        </Flex>
      )}
      {mounted && !narrow && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: GRID_ROW_HEIGHT, margin: [16, 16] }}
          dragConfig={{ enabled: true, handle: '.widget-drag-handle' }}
          resizeConfig={{ enabled: true, handles: ['se'] }}
          compactor={verticalCompactor}
          onDragStop={(l) => fromGrid(l)}
          onResizeStop={(l) => fromGrid(l)}
        >
          {placed.map((w) => (
            <div key={w.id} data-testid="builder-widget" data-widget-id={w.id} style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
              {toolbar(w)}
              <div style={{ flex: 1, minHeight: 0, opacity: w.visible === false ? 0.5 : 1 }}>{render(w)}</div>
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
