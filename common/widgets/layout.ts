import { GRID_COLUMNS, type WidgetLayout } from '../schemas/widgets/widget';

/** A new widget's size on the 12-column grid, by type. */
export function defaultSize(type: string): { w: number; h: number } {
  switch (type) {
    case 'kpi': return { w: 3, h: 2 };
    case 'gauge': return { w: 3, h: 3 };
    case 'scatter':
    case 'bar':
    case 'donut':
    case 'line': return { w: 6, h: 5 };
    default: return { w: GRID_COLUMNS, h: 8 };
  }
}

/** Every widget with a place on the grid: those without a layout go below the others, left to right. */
export function placeWidgets<T extends { type: string; layout?: WidgetLayout }>(widgets: T[]): (T & { layout: WidgetLayout })[] {
  let bottom = widgets.reduce((m, w) => (w.layout ? Math.max(m, w.layout.y + w.layout.h) : m), 0);
  let x = 0;
  let rowHeight = 0;
  return widgets.map((w) => {
    if (w.layout) return w as T & { layout: WidgetLayout };
    const { w: width, h } = defaultSize(w.type);
    if (x + width > GRID_COLUMNS) {
      bottom += rowHeight;
      x = 0;
      rowHeight = 0;
    }
    const layout = { x, y: bottom, w: width, h };
    x += width;
    rowHeight = Math.max(rowHeight, h);
    return { ...w, layout };
  });
}

/** Reading order (top to bottom, then left to right): how a phone stacks the grid. */
export function readingOrder<T extends { layout: WidgetLayout }>(widgets: T[]): T[] {
  return [...widgets].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
}
