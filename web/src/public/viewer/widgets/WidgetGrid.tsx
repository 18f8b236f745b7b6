import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Widget } from '@common/schemas/dashboard';
import { GRID_COLUMNS, GRID_ROW_HEIGHT, type WidgetLayout } from '@common/schemas/widgets/widget';
import { placeWidgets, readingOrder } from '@common/widgets/layout';
import { useMediaQuery } from '../../../useMediaQuery';

const GAP = 16;
/** Room TV mode keeps under the grid (its padding). */
const FILL_BOTTOM = 32;

/**
 * The height a filling grid has: from its top (measured, whatever the title bar and a reconnect
 * banner above it take) to the bottom of the screen, again when the window or what is above changes.
 */
function useFillHeight(active: boolean, grid: RefObject<HTMLDivElement | null>): number {
  const [height, setHeight] = useState(() => window.innerHeight - 140);
  useLayoutEffect(() => {
    const el = grid.current;
    if (!active || !el) return;
    const measure = () => setHeight(window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - FILL_BOTTOM);
    measure();
    const above = new ResizeObserver(measure);
    if (el.parentElement) above.observe(el.parentElement);
    window.addEventListener('resize', measure);
    return () => {
      above.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [active, grid]);
  return height;
}
/**
 * TV mode fills the screen's width too: a tab whose widgets leave the right of the grid empty (all
 * in the left half, say) is stretched to the full 12 columns.
 */
function widen<T extends { layout: WidgetLayout }>(placed: T[]): T[] {
  const right = placed.reduce((m, w) => Math.max(m, w.layout.x + w.layout.w), 0);
  if (right === 0 || right >= GRID_COLUMNS) return placed;
  const col = (x: number) => Math.round((x * GRID_COLUMNS) / right);
  return placed.map((w) => ({ ...w, layout: { ...w.layout, x: col(w.layout.x), w: col(w.layout.x + w.layout.w) - col(w.layout.x) } }));
}

/** Pixel height of a widget `h` rows tall (the gaps it spans included). */
export const rowsHeight = (h: number, rowHeight = GRID_ROW_HEIGHT) => h * rowHeight + (h - 1) * GAP;

/**
 * A tab's widgets on the 12-column grid the builder lays out; on a phone, one column in reading
 * order with each widget keeping its height.
 */
export function WidgetGrid({ widgets, render, fill = false }: { widgets: Widget[]; render(widget: Widget, height: number): ReactNode; fill?: boolean }) {
  const placed = fill ? widen(placeWidgets(widgets)) : placeWidgets(widgets);
  const ref = useRef<HTMLDivElement>(null);
  const height = useFillHeight(fill, ref);
  // Filling the screen (TV mode): rows share the height from the grid's top to the screen's bottom, never under the builder's row height.
  const rows = placed.reduce((m, w) => Math.max(m, w.layout.y + w.layout.h), 1);
  const rowHeight = fill ? Math.max(GRID_ROW_HEIGHT, Math.floor((height - (rows - 1) * GAP) / rows)) : GRID_ROW_HEIGHT;
  // Under antd's md breakpoint (768 px): a phone.
  const narrow = !useMediaQuery('(min-width: 768px)');
  const cell = (l: WidgetLayout) => (narrow ? { gridColumn: '1 / -1' } : { gridColumn: `${l.x + 1} / span ${l.w}`, gridRow: `${l.y + 1} / span ${l.h}` });
  return (
    <div
      ref={ref}
      data-testid="widget-grid"
      style={{ display: 'grid', gap: GAP, gridTemplateColumns: narrow ? 'minmax(0, 1fr)' : `repeat(${GRID_COLUMNS}, minmax(0, 1fr))`, gridAutoRows: narrow ? 'auto' : rowHeight }}
    >
      {(narrow ? readingOrder(placed) : placed).map((w) => (
        <div key={w.id} style={{ ...cell(w.layout), minWidth: 0, height: narrow ? rowsHeight(Math.max(w.layout.h, w.type === 'kpi' ? 2 : 4), rowHeight) : undefined }}>
          {render(w, rowsHeight(w.layout.h, rowHeight))}
        </div>
      ))}
    </div>
  );
}
