import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Switch, Tooltip } from 'antd';
import { useViewerTheme } from './viewerTheme';

/** Switches the viewer between the light and the dark theme. */
export function ThemeToggle() {
  const { dark, setDark } = useViewerTheme();
  return (
    <Tooltip title={dark ? 'Light theme' : 'Dark theme'}>
      <Switch checked={dark} onChange={setDark} aria-label="Dark theme" checkedChildren={<MoonOutlined />} unCheckedChildren={<SunOutlined />} />
    </Tooltip>
  );
}
