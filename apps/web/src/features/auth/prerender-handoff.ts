// The hand-off from the prerendered sign-in page (dist/login.html) to the console: whatever the
// visitor typed, focused or submitted before the console's scripts took the page over is carried
// into the live form, so nothing typed is lost and a password never goes into a plain form post.

export interface LoginDraft {
  username: string;
  password: string;
  /** The field that last had the focus, to give it back. */
  focused: 'username' | 'password' | null;
  /** The visitor pressed Sign in (or Enter) before the console was ready: sign in on arrival. */
  submitted: boolean;
}

let prerendered: HTMLFormElement | null = null;
let submitted = false;
let focused: LoginDraft['focused'] = null;

const fieldName = (target: EventTarget | null): LoginDraft['focused'] => {
  const name = target instanceof HTMLInputElement ? target.name : '';
  return name === 'username' || name === 'password' ? name : null;
};

/** login-entry.ts, before the console loads: holds submits of the prerendered form, follows its focus. */
export function holdPrerenderedSubmits(root: HTMLElement): void {
  prerendered = root.querySelector('form');
  focused = fieldName(document.activeElement);
  prerendered?.addEventListener('focusin', (event) => (focused = fieldName(event.target)));
  document.addEventListener(
    'submit',
    (event) => {
      if (prerendered === null || event.target !== prerendered) return;
      event.preventDefault();
      submitted = true;
    },
    true,
  );
}

/**
 * What the visitor did on the prerendered form, read while the console's first render replaces
 * it (the live form's starting values); null once the hand-off has ended.
 */
export function readLoginDraft(): LoginDraft | null {
  return prerendered?.isConnected ? draftOf(prerendered) : null;
}

/**
 * Ends the hand-off once the live form is on the page and answers the prerendered form's last
 * state: the visitor may have typed or pressed Sign in while the live form was being rendered.
 */
export function endLoginHandOff(): LoginDraft | null {
  if (prerendered === null) return null;
  const last = draftOf(prerendered);
  prerendered = null;
  return last;
}

function draftOf(form: HTMLFormElement): LoginDraft {
  const field = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  return {
    username: field('username')?.value ?? '',
    password: field('password')?.value ?? '',
    focused,
    submitted,
  };
}
