import { useEffect } from 'react';

export const PRODUCT_TITLE = 'LiveDash';

/** "<screen> · LiveDash" as the browser tab's title while a screen is shown (just "LiveDash" without a name). */
export function useDocumentTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = screen ? `${screen} · ${PRODUCT_TITLE}` : PRODUCT_TITLE;
  }, [screen]);
}
