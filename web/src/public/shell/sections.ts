import { SHELL_SECTIONS, type ShellSection } from '@common/clientRoutes';

export { SHELL_SECTIONS, type ShellSection };

/** The page title by path prefix: a section's name, otherwise "User Dashboard". */
export function shellTitle(pathname: string): string {
  const section = pathname.split('/')[2];
  return section && Object.prototype.hasOwnProperty.call(SHELL_SECTIONS, section) ? SHELL_SECTIONS[section as ShellSection].title : 'User Dashboard';
}
