/** Where the API client and session logic send user-visible notices; injected so tests can record them. */
export interface Notifier {
  /** A red notice: `title` is the user message, `message` the developer message if any. */
  error(title: string, message?: string): void;
  success(message: string): void;
  warning(message: string): void;
}
