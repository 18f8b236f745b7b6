import { ConfigProvider, theme } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { APP_THEME } from '../../../appTheme';
import { useReducedMotion } from '../../../useReducedMotion';
import { SECONDARY_TEXT } from '../../PublicTheme';
import { useWidgetEnv } from '../widgets/widgetContext';

/** Secondary text on the dark theme: white at 72 % (about 9:1 on antd's dark background). */
const DARK_SECONDARY_TEXT = 'rgba(255, 255, 255, 0.72)';

/**
 * antd's theme for the parts of the viewer drawn with antd, which load only when shown (filter bar,
 * tables, boards, error pages): the app's theme with readable secondary text, the dark algorithm on
 * the dark theme and larger type in TV mode, as the rest of the viewer (viewerUi.css).
 */
export function ViewerAntd({ children }: { children: ReactNode }) {
  const { dark, tv } = useWidgetEnv();
  const reducedMotion = useReducedMotion();
  const token = {
    ...APP_THEME,
    motion: !reducedMotion,
    colorTextSecondary: SECONDARY_TEXT,
    colorTextDescription: SECONDARY_TEXT,
    // antd's placeholders (black at 25 %) read at 1.8:1: the filter bar's "All" must be read.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    // The app's blue (#2563eb) reads at 3.3:1 on the dark background; blue-500 reads at 5.6:1.
    ...(dark ? { colorTextSecondary: DARK_SECONDARY_TEXT, colorTextDescription: DARK_SECONDARY_TEXT, colorTextPlaceholder: 'rgba(255, 255, 255, 0.56)', colorPrimary: '#3b82f6' } : {}),
    ...(tv ? { fontSize: 18 } : {}),
  };
  return <ConfigProvider theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token }}>{children}</ConfigProvider>;
}

/** A component drawn inside ViewerAntd (for a lazily loaded chunk to wrap its own export). */
export function withViewerAntd<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  return function Themed(props: P) {
    return (
      <ViewerAntd>
        <Component {...props} />
      </ViewerAntd>
    );
  };
}
