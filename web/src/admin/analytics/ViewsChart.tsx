import { Flex, Tooltip, theme } from 'antd';

/** Views per day as small bars, oldest left (antd has no chart component; plain divs suffice). */
export function ViewsChart({ days }: { days: { day: string; views: number }[] }) {
  const { token } = theme.useToken();
  const max = Math.max(1, ...days.map((d) => d.views));
  return (
    <Flex align="end" gap={2} style={{ height: 32, minWidth: days.length * 5 }} role="img" aria-label={`Views per day, last ${days.length} days`}>
      {days.map((d) => (
        <Tooltip key={d.day} title={`${d.day}: ${d.views} view${d.views === 1 ? '' : 's'}`}>
          <div style={{ width: 4, height: `${Math.max(2, (d.views / max) * 32)}px`, background: d.views ? token.colorPrimary : token.colorFillSecondary, borderRadius: 1 }} />
        </Tooltip>
      ))}
    </Flex>
  );
}
