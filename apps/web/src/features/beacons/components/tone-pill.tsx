import type { ReactNode } from 'react';
import classes from './tone.module.css';

export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'grape' | 'gray';

/** A small coloured label readable in both schemes. */
export function TonePill({ tone, label, children }: { tone: Tone; label?: string; children: ReactNode }) {
  return (
    <span className={classes.pill} data-tone={tone} aria-label={label}>
      {children}
    </span>
  );
}
