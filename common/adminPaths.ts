/** Whether an API path needs the admin token: it holds an `admin` or `integrations` segment (DECISIONS.md). */
export function isAdminPath(path: string): boolean {
  return path.split(/[?#]/)[0].split('/').some((segment) => segment === 'admin' || segment === 'integrations');
}
