import { FILE_LIMITS, fileTooBig } from '@fleet/shared/constants';
import { MESSAGES } from '@fleet/shared/validation';

/**
 * Reads a chosen dataview JSON file: at most 1000000 bytes ('File is too big…', fleet §5); an
 * invalid JSON file answers the parse error. Answers the text, pretty-printed.
 */
export async function readContentFile(file: File): Promise<{ text: string } | { error: string }> {
  if (file.size > FILE_LIMITS.dataview) return { error: fileTooBig(FILE_LIMITS.dataview) };
  const text = await file.text();
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The typed content: empty means the default content; otherwise valid JSON ('Is not valid JSON'). */
export function parseContentText(text: string): { value: unknown } | { error: string } {
  if (text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: MESSAGES.json };
  }
}
