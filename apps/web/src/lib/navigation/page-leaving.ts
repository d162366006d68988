/**
 * Whether this document is being unloaded (a reload, a link out, the tab closing).
 *
 * The browser cancels this page's requests as it goes, and their failures still reach our
 * handlers. Such a failure is not the server's answer: it must not sign the user out (which
 * would clear the stored session the reloaded page is about to use) nor raise a notice.
 * `pagehide` fires before the requests are cancelled; `pageshow` undoes it when the page comes
 * back from the back-forward cache.
 */
let leaving = false;

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
}

export function pageIsLeaving(): boolean {
  return leaving;
}
