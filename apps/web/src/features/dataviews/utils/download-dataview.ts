import { downloadText } from '@/lib/download.ts';
import { notifyError } from '@/lib/notify.ts';
import { getDataview } from '../api/get-dataview.ts';

/** Downloads a dataview's content as `{name}.json`; 'Failed to download dataview' on failure (fleet §8). */
export async function downloadDataview(entity: string, name: string): Promise<void> {
  try {
    const dataview = await getDataview(entity, name, false);
    downloadText(`${name}.json`, `${JSON.stringify(dataview.content, null, 2)}\n`, 'application/json;charset=utf-8');
  } catch (err) {
    console.error('Dataview not downloaded:', err);
    notifyError('Failed to download dataview');
  }
}
