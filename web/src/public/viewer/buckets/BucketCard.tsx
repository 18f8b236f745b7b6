import { theme } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import type { HighlightRule } from '@common/schemas/dashboard';
import { isEmptyValue } from '@common/cells';
import { fieldLabel, formatValue } from '@common/formats';
import { typedFormat, type FieldTyping } from '@common/types/fieldTyping';
import { highlightColor } from './bucketModel';

type ColorToken = 'red' | 'yellow' | 'green' | 'blue' | 'purple';

/** Colours and radii of the cards, read once per board (a token hook per card costs on big boards). */
export interface CardLook {
  border: Record<string, string>;
  background: string;
  radius: number;
  secondary: string;
}

export function useCardLook(): CardLook {
  const { token } = theme.useToken();
  return useMemo(() => {
    const border: Record<string, string> = { gray: token.colorBorder };
    for (const c of ['red', 'yellow', 'green', 'blue', 'purple'] as ColorToken[]) border[c] = token[c];
    return { border, background: token.colorBgContainer, radius: token.borderRadiusLG, secondary: token.colorTextSecondary };
  }, [token]);
}

const row: CSSProperties = { display: 'flex', gap: 8, minWidth: 0, lineHeight: '22px' };
const clip: CSSProperties = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 };

interface Props {
  recordId: string;
  value(field: string): unknown;
  displayKeys: string[];
  rules: HighlightRule[] | undefined;
  labels: Record<string, string>;
  look: CardLook;
  /** The source's type model: how each display key's value reads. */
  typing?: FieldTyping;
}

/** One record card: its display keys (label: readable value, the full value on hover), border by the highlight rules. */
export function BucketCard({ recordId, value, displayKeys, rules, labels, look, typing }: Props) {
  const color = highlightColor(rules, value);
  return (
    <div
      data-testid="bucket-card"
      data-color={color}
      style={{ background: look.background, border: `2px solid ${look.border[color] ?? look.border.gray}`, borderRadius: look.radius, padding: '8px 12px', minWidth: 0 }}
    >
      {displayKeys.length === 0 ? (
        <span>Record ID: {recordId}</span>
      ) : (
        displayKeys.map((k) => {
          const v = value(k);
          const shown = isEmptyValue(v) ? { text: 'N/A', title: undefined } : formatValue(k, v, typedFormat(typing, k));
          return (
            <div key={k} style={row}>
              <span style={{ flex: 'none', color: look.secondary }}>{fieldLabel(k, labels)}:</span>
              <span style={clip} title={shown.title ?? (shown.text.length > 24 ? (typeof v === 'string' ? v : shown.text) : undefined)}>{shown.text}</span>
            </div>
          );
        })
      )}
    </div>
  );
}
