import { Button, Flex, Input, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { HIGHLIGHT_COLORS } from '@common/constants';
import { FIELD_SEARCH } from '../../ui/fieldSearch';
import type { HighlightRule } from '@common/schemas/dashboard';

const SWATCH: Record<string, string> = { red: '#ef4444', yellow: '#eab308', green: '#22c55e', blue: '#3b82f6', purple: '#a855f7' };

/** Highlight rules: a card's border takes the colour of the first rule whose key equals its value. */
export function HighlightRulesEditor({ rules, keys, onChange }: { rules: HighlightRule[]; keys: string[]; onChange(rules: HighlightRule[]): void }) {
  const patch = (i: number, p: Partial<HighlightRule>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...p } : r)));
  return (
    <Flex vertical gap={8} data-testid="highlight-rules">
      {rules.length === 0 && <Typography.Text type="secondary">No highlight rules: every card has a gray border.</Typography.Text>}
      {rules.map((r, i) => (
        <Flex key={i} gap={8} align="center" wrap data-testid="highlight-rule">
          <Select
            style={{ width: 180 }}
            placeholder="Field"
            showSearch={FIELD_SEARCH}
            value={r.key || undefined}
            onChange={(key: string) => patch(i, { key })}
            options={keys.map((k) => ({ value: k, label: k }))}
            aria-label="Highlight field"
          />
          <span>equals</span>
          <Input style={{ width: 160 }} placeholder="Value" value={r.value} onChange={(e) => patch(i, { value: e.target.value })} aria-label="Highlight value" />
          <Select
            style={{ width: 130 }}
            value={r.color}
            onChange={(color: string) => patch(i, { color })}
            aria-label="Highlight colour"
            options={HIGHLIGHT_COLORS.map((c) => ({
              value: c,
              label: (
                <Flex gap={6} align="center">
                  <span style={{ width: 12, height: 12, borderRadius: 3, background: SWATCH[c], display: 'inline-block' }} />
                  {c}
                </Flex>
              ),
            }))}
          />
          <Button type="text" danger aria-label="Remove rule" icon={<DeleteOutlined />} onClick={() => onChange(rules.filter((_, j) => j !== i))} />
        </Flex>
      ))}
      <div>
        <Button icon={<PlusOutlined />} onClick={() => onChange([...rules, { key: keys[0] ?? '', value: '', color: 'red' }])} disabled={keys.length === 0}>
          Add Highlight Rule
        </Button>
      </div>
    </Flex>
  );
}
