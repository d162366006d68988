import { useEffect } from 'react';

/** Sets the tab title to "<title> · Fleet Console" while the calling screen is shown. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · Fleet Console` : 'Fleet Console';
  }, [title]);
}
