import MoonOutlined from '@ant-design/icons-svg/es/asn/MoonOutlined';
import SunOutlined from '@ant-design/icons-svg/es/asn/SunOutlined';
import { Icon, Tip } from './ui/kit';
import { useViewerTheme } from './viewerTheme';

/** Switches the viewer between the light and the dark theme. */
export function ThemeToggle() {
  const { dark, setDark } = useViewerTheme();
  return (
    <Tip title={dark ? 'Light theme' : 'Dark theme'}>
      <button type="button" role="switch" className="lv-switch" aria-checked={dark} aria-label="Dark theme" onClick={() => setDark(!dark)}>
        <span className="lv-switch-handle" />
        <span className="lv-switch-inner">
          <Icon icon={dark ? MoonOutlined : SunOutlined} />
        </span>
      </button>
    </Tip>
  );
}
