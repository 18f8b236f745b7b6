/** A KPI's sparkline: the metric per bucket as a small line, its last point marked; read by screen readers as a summary. */
export function Sparkline({ rows, color, height, dark }: { rows: { start: number; value: number }[]; color: string; height: number; dark?: boolean }) {
  const values = rows.map((r) => r.value);
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  const x = (i: number) => (i / (rows.length - 1)) * 100;
  const y = (v: number) => 2 + (1 - (v - min) / span) * (height - 4);
  const points = values.map((v, i) => `${x(i).toFixed(2)},${y(v).toFixed(2)}`).join(' ');
  return (
    <svg
      data-testid="kpi-sparkline"
      data-points={rows.length}
      role="img"
      aria-label={`Trend over ${rows.length} buckets: from ${values[0]} to ${values[values.length - 1]}`}
      viewBox={`0 0 100 ${height}`}
      preserveAspectRatio="none"
      style={{ width: '100%', height, marginTop: 6, overflow: 'visible' }}
    >
      <polyline points={points} fill="none" stroke={color} strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" opacity={dark ? 0.9 : 1} />
    </svg>
  );
}
