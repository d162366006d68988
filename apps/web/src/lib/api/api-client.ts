import type { SessionStore } from '../session/session-store.ts';
import type { TokenRefresher } from '../session/token-refresher.ts';
import { ApiError, AUTH_ERROR, NETWORK_ERROR, apiErrorFromResponse } from './api-error.ts';

/** Why a superadmin's entity call was not sent: no entity is open in this tab. */
export const NO_ENTITY_OPEN = 'Choose an entity first';
import type { Notifier } from './notifier.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A list is sent as the key repeated (`?owner=a&owner=b`). */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON, except FormData/Blob/URLSearchParams which pass through untouched. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** `access` (default): the session's access token with 401 recovery; `none`; or an explicit bearer. */
  auth?: 'access' | 'none' | { bearer: string };
  /** Show the error notice on failure (default true); screens that explain errors themselves opt out. */
  notify?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Validates and types the answer, e.g. `SomeSchema.parse`. */
  parse?: (data: unknown) => T;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  session: Pick<SessionStore, 'getSnapshot' | 'signOut'>;
  refresher: TokenRefresher;
  notifier: Notifier;
  /** Prefix for relative paths; default `/api/v1`. */
  baseUrl?: string;
  /**
   * The entity `tenant()` builds paths for; default the session's. Null while a superadmin has
   * opened no entity: `tenant()` then refuses rather than call `tenant//` or the landlord scope.
   */
  activeEntity?: () => string | null;
  /**
   * True while the page unloads: the browser is cancelling our requests, so their failures are
   * not answers (no notice, no sign-out). Default never.
   */
  pageIsLeaving?: () => boolean;
}

export interface ApiClient {
  /** Calls `path` (relative to the base, or absolute when it starts with '/' or is a URL); throws ApiError. */
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  /** `tenant/{entity}/{path}` for the active entity; throws when signed out or no entity is open. */
  tenant(path: string): string;
  /** The URL a call to `path` goes to, for requests made outside the client (event streams). */
  url(path: string): string;
}

/** `tenant/{entity}/{path}` with the entity URL-encoded. */
export function tenantPath(entity: string, path: string): string {
  return `tenant/${encodeURIComponent(entity)}/${path.replace(/^\/+/, '')}`;
}

function isRawBody(body: unknown): body is BodyInit {
  return body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams;
}

function buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue> | undefined): string {
  // Absolute paths and full URLs (the kiosk manager's host, KIOSK_MANAGER_URL) go as they are.
  const url = path.startsWith('/') || /^https?:\/\//.test(path) ? path : `${baseUrl}/${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const v of value as readonly string[]) params.append(key, v);
    else if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? (JSON.parse(text) as unknown) : text;
}

/**
 * The console's one API client. Every 401 on an access-token call waits for ONE shared refresh,
 * then is retried once; a refresh that fails signs the user out with 'Authentication error'.
 */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  const baseUrl = deps.baseUrl ?? '/api/v1';
  let recovery: Promise<boolean> | null = null;

  /** Resolves true when a newer access token is available than `usedToken`. */
  function recover(usedToken: string | null): Promise<boolean> {
    const current = deps.session.getSnapshot().accessToken;
    if (current !== null && current !== usedToken) return Promise.resolve(true);
    recovery ??= deps.refresher
      .refresh()
      .then(
        () => deps.session.getSnapshot().status === 'signed-in',
        () => false,
      )
      .then((ok) => {
        if (!ok) failAuthentication();
        return ok;
      })
      .finally(() => {
        recovery = null;
      });
    return recovery;
  }

  const leaving = deps.pageIsLeaving ?? (() => false);

  function failAuthentication(): void {
    // A sign-out in another tab also lands here; that user needs no error notice.
    if (deps.session.getSnapshot().status !== 'signed-in') return;
    // A refresh cancelled by a reload proves nothing; the reloaded page still needs the session.
    if (leaving()) return;
    deps.session.signOut('auth-error');
    deps.notifier.error(AUTH_ERROR);
  }

  async function send(url: string, init: RequestInit, bearer: string | null, notify: boolean): Promise<Response> {
    const headers = new Headers(init.headers);
    if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
    try {
      return await deps.fetch(url, { ...init, headers });
    } catch (cause) {
      if (init.signal?.aborted) throw cause;
      if (notify && !leaving()) deps.notifier.error(NETWORK_ERROR);
      throw new ApiError({ status: 0, userMessage: NETWORK_ERROR, notified: notify, cause });
    }
  }

  async function request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const { method = 'GET', body, query, auth = 'access', notify = true, signal, parse } = options;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      if (isRawBody(body)) payload = body;
      else {
        payload = JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
      }
    }
    const init: RequestInit = { method, headers, body: payload, signal: signal ?? null };
    const url = buildUrl(baseUrl, path, query);
    const bearerFor = (): string | null =>
      auth === 'none' ? null : auth === 'access' ? deps.session.getSnapshot().accessToken : auth.bearer;

    const usedToken = bearerFor();
    let response = await send(url, init, usedToken, notify);
    if (response.status === 401 && auth === 'access') {
      if (!(await recover(usedToken))) {
        throw new ApiError({ status: 401, userMessage: AUTH_ERROR, notified: true });
      }
      response = await send(url, init, bearerFor(), notify);
      if (response.status === 401) {
        failAuthentication();
        throw new ApiError({ status: 401, userMessage: AUTH_ERROR, notified: true });
      }
    }
    if (!response.ok) {
      const error = await apiErrorFromResponse(response, notify);
      if (notify) deps.notifier.error(error.userMessage, error.developerMessage || undefined);
      throw error;
    }
    const data = await readBody(response);
    return parse ? parse(data) : (data as T);
  }

  const withMethod =
    (method: HttpMethod) =>
    <T>(path: string, body: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method, body });

  return {
    request,
    get: (path, options = {}) => request(path, { ...options, method: 'GET' }),
    post: withMethod('POST'),
    put: withMethod('PUT'),
    delete: (path, options = {}) => request(path, { ...options, method: 'DELETE' }),
    tenant(path) {
      if (deps.session.getSnapshot().entity === null) throw new ApiError({ status: 401, userMessage: AUTH_ERROR });
      const entity = deps.activeEntity ? deps.activeEntity() : deps.session.getSnapshot().entity;
      if (!entity) throw new ApiError({ status: 400, userMessage: NO_ENTITY_OPEN });
      return tenantPath(entity, path);
    },
    url: (path) => buildUrl(baseUrl, path, undefined),
  };
}
