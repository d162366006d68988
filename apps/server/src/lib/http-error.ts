/** An error the API answers as-is in the `errorInfo` envelope. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly userMessage: string,
    readonly developerMessage: string = userMessage,
    readonly details?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(developerMessage);
  }
}

export const unauthorized = (developerMessage = 'Missing or invalid access token') =>
  new HttpError(401, 'Authentication required', developerMessage);

export const forbidden = (developerMessage = 'Not allowed for this account') =>
  new HttpError(403, 'You do not have permission to do this', developerMessage);

/** A 400 naming one field (`document.name`, `entity`) with its message, as form screens show it. */
export const invalidField = (field: string, message: string) =>
  new HttpError(400, 'Invalid input', message, { [field]: [message] });

export const notFound = (what = 'Resource') => new HttpError(404, `${what} not found`, `${what} not found`);
