/** The user-dashboard shell's sections and their sub-pages, for the router and the sidebar. */
export const SHELL_SECTIONS = {
  analytics: { title: 'Analytics', pages: ['overview', 'reports', 'trends', 'charts'] },
  reports: { title: 'Reports', pages: ['scheduled', 'custom', 'export'] },
  settings: { title: 'Settings', pages: ['profile', 'preferences', 'notifications', 'security'] },
} as const;

export type ShellSection = keyof typeof SHELL_SECTIONS;

const isSection = (s: string): s is ShellSection => Object.prototype.hasOwnProperty.call(SHELL_SECTIONS, s);

/**
 * Whether the web app has a screen at this path (the server answers 404 for the rest, with the
 * app's own 404 page). Mirrors the routes of web/src/routes.tsx.
 */
export function isClientRoute(pathname: string): boolean {
  if (pathname === '/' || pathname === '/admin' || pathname === '/dashboards') return true;
  const parts = pathname.split('/').slice(1);
  if (parts[0] === 's' || parts[0] === 'invite') return parts.length === 2 && /^[A-Za-z0-9_-]+$/.test(parts[1]); // a share link's viewer, an invitation
  if (parts[0] === 'embed') return parts.length === 2 && /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){2}$/.test(parts[1]); // a signed embed token's viewer
  if (parts[0] !== 'dashboards' || parts.some((p) => p === '')) return false;
  if (parts.length === 2) return true; // a section, or a dashboard id
  if (parts.length === 3 && isSection(parts[1])) return (SHELL_SECTIONS[parts[1]].pages as readonly string[]).includes(parts[2]);
  return false;
}
