import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { viewQuery, type SavedView } from '@fleet/shared/schemas/device-view';
import { useSavedViews } from '../api/saved-views.ts';

const withView = (view: SavedView) => new URLSearchParams(`${view.query}${view.query ? '&' : ''}view=${view.id}`);

/**
 * A saved view as a link: `?view=<id>` opens the list with the view's filters and sort; applying
 * one from the menu puts both in the URL. Changing a filter leaves the view (the list's URL no
 * longer names it).
 */
export function useViewUrl(landlord: boolean) {
  const [params, setParams] = useSearchParams();
  const views = useSavedViews(landlord);
  const id = params.get('view');
  useEffect(() => {
    const view = id === null ? undefined : views.data?.find((v) => v.id === id);
    if (view && viewQuery(params.toString()) !== view.query) setParams(withView(view), { replace: true });
  }, [id, views.data, params, setParams]);
  const apply = useCallback((view: SavedView) => setParams(withView(view)), [setParams]);
  return { activeId: id, apply };
}
