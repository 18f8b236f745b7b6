import { describe, expect, it } from 'vitest';
import { formatKpi } from '@common/widgets/format';
import { freeSpot } from './freeSpot';
import { duplicateWidget, newWidget } from './widgetDrafts';

describe('a new widget fills the 12-column grid', () => {
  it('goes beside the others before going below them', () => {
    let widgets = [newWidget('kpi', [])];
    for (let i = 0; i < 3; i++) widgets = [...widgets, newWidget('kpi', widgets)];
    expect(widgets.map((w) => [w.layout!.x, w.layout!.y])).toEqual([[0, 0], [3, 0], [6, 0], [9, 0]]);
    widgets = [...widgets, newWidget('line', widgets)];
    widgets = [...widgets, newWidget('bar', widgets)];
    expect(widgets.slice(4).map((w) => w.layout)).toEqual([{ x: 0, y: 2, w: 6, h: 5 }, { x: 6, y: 2, w: 6, h: 5 }]);
    expect(duplicateWidget(widgets[0], widgets).layout).toEqual({ x: 0, y: 7, w: 3, h: 2 });
  });

  it('takes the first hole it fits, and goes below when none fits', () => {
    expect(freeSpot([{ x: 0, y: 0, w: 6, h: 5 }, { x: 0, y: 5, w: 12, h: 2 }], { w: 6, h: 5 })).toEqual({ x: 6, y: 0, w: 6, h: 5 });
    expect(freeSpot([{ x: 0, y: 0, w: 8, h: 2 }], { w: 6, h: 5 })).toEqual({ x: 0, y: 2, w: 6, h: 5 });
  });
});

describe('a KPI unit', () => {
  it('puts a currency sign before the number unless the widget says otherwise', () => {
    expect(formatKpi(1200, { decimals: 0, unit: '$' })).toBe('$1,200');
    expect(formatKpi(5, { decimals: 1, unit: '€' })).toBe('€5.0');
    expect(formatKpi(5, { decimals: 0, unit: 'US$' })).toBe('US$5');
    expect(formatKpi(5, { decimals: 0, unit: '$', unitPosition: 'suffix' })).toBe('5 $');
    expect(formatKpi(5, { decimals: 0, unit: 'h' })).toBe('5 h');
    expect(formatKpi(5, { decimals: 0, unit: 'pts', unitPosition: 'prefix' })).toBe('pts5');
  });
});
