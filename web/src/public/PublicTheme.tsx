import { ConfigProvider, Tag, theme, type TagProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * antd's secondary text (black at 45 %) reads at about 3.4:1 on white, under WCAG's 4.5:1 for
 * body text; 62 % reads at about 5.9:1 (the admin console uses the same value).
 */
export const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.62)';

/** The public pages' theme: the app theme with readable secondary and description text. */
export function PublicTheme({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={{ token: { colorTextSecondary: SECONDARY_TEXT, colorTextDescription: SECONDARY_TEXT } }}>{children}</ConfigProvider>;
}

// antd's preset tags write gold and green text in shade 7 (2.8:1 and 3.4:1 on their own
// background); these shades read at 6.5:1 and 5.4:1. Blue and red shade 7 already pass.
const TEXT_SHADE: Record<string, 'gold9' | 'green8'> = { gold: 'gold9', green: 'green8' };

/** A preset-coloured antd Tag whose text is dark enough to read. */
export function ReadableTag({ color, style, ...props }: TagProps & { color?: string }) {
  const { token } = theme.useToken();
  const shade = color ? TEXT_SHADE[color] : undefined;
  return <Tag color={color} style={shade ? { color: token[shade], ...style } : style} {...props} />;
}
