import { shuttingDown } from '../../lib/shutting-down.ts';

/** A call that reached publishing after the shutdown drain: its rows are held, not published. */
export const heldOnShutdown = () =>
  shuttingDown(
    'The server is restarting: the command is held and goes out shortly',
    'Shutting down: the command was not published; it is held until the device is heard from again',
  );

/** A call whose device had not answered when the drain ended: a late reply still settles the row. */
export const unansweredOnShutdown = () =>
  shuttingDown(
    'The server is restarting before the device answered: the command history shows the outcome',
    'Shutting down: the command was sent; a reply still updates the command history',
  );
