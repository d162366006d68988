import { fileTooBig } from '@fleet/shared/constants';
import {
  DATAVIEW_CONTENT_LIMIT,
  contentBytes,
  defaultDataviewContent,
  type DataviewContent,
} from '@fleet/shared/schemas/dataview';
import { HttpError } from '../../lib/http-error.ts';

/**
 * The content to store: the given content (already checked against format 1) or, when empty,
 * the default of fleet §3. Its `name` always follows the dataview's name. At most 1000000 bytes.
 */
export function contentToStore(
  given: DataviewContent | undefined,
  name: string,
  description: string,
  field = 'document.content',
): DataviewContent {
  const content = given ? { ...given, name } : defaultDataviewContent(name, description);
  const bytes = contentBytes(content);
  if (bytes > DATAVIEW_CONTENT_LIMIT) {
    const message = fileTooBig(DATAVIEW_CONTENT_LIMIT);
    throw new HttpError(413, message, `Content is ${bytes} bytes`, { [field]: [message] });
  }
  return content;
}
