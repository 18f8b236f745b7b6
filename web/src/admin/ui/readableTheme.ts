import type { ThemeConfig } from 'antd';
import { SECONDARY_TEXT } from './States';

/**
 * The console's colours, each at 4.5:1 or more on its background (WCAG AA for body text), where
 * antd's defaults read lower: placeholders (black at 25 %, 1.8:1), links (antd's own blue, 4.1:1),
 * danger buttons (#ff4d4f, 3.3:1), and the text of coloured tags — antd writes it in shade 7 of
 * the colour on shade 1, 2–4.4:1 for orange, gold, yellow, lime, green, cyan and volcano; here it
 * takes the first darker shade that reads at 5:1 or more. An empty table's words ("No data") are
 * antd's disabled grey (1.8:1): here the secondary text's.
 */
export const READABLE_THEME: ThemeConfig = {
  token: {
    colorTextDescription: SECONDARY_TEXT,
    colorTextSecondary: SECONDARY_TEXT,
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorLink: '#2563eb',
    colorError: '#cf1322',
  },
  components: {
    Table: { colorTextDisabled: SECONDARY_TEXT },
    Tag: { volcano7: '#ad2102', orange7: '#ad4e00', gold7: '#874d00', yellow7: '#876800', lime7: '#3f6600', green7: '#237804', cyan7: '#006d75', colorSuccess: '#237804', colorWarning: '#ad4e00' },
  },
};
