/** The user-dashboard shell's sections and their sub-pages (spec 2.1), for the router and the sidebar. */
export const SHELL_SECTIONS = {
  analytics: { title: 'Analytics', pages: ['overview', 'reports', 'trends', 'charts'] },
  reports: { title: 'Reports', pages: ['scheduled', 'custom', 'export'] },
  settings: { title: 'Settings', pages: ['profile', 'preferences', 'notifications', 'security'] },
} as const;

export type ShellSection = keyof typeof SHELL_SECTIONS;

/** The page title by path prefix (spec 2.3): a section's name, otherwise "User Dashboard". */
export function shellTitle(pathname: string): string {
  const section = pathname.split('/')[2];
  return section && Object.prototype.hasOwnProperty.call(SHELL_SECTIONS, section) ? SHELL_SECTIONS[section as ShellSection].title : 'User Dashboard';
}
