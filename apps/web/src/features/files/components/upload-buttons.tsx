import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconCpu, IconFiles } from '@tabler/icons-react';
import { mayChangeFiles } from '@fleet/shared/registry-access';
import { useSession } from '@/lib/session/use-session.ts';
import type { UploadTarget } from '../api/upload-target.ts';
import { FilesModal } from './files-modal.tsx';
import { FirmwareModal } from './firmware-modal.tsx';

/**
 * The File and Firmware buttons (fleet §2) and the dialogs they open, for the entity config
 * ('File', 'Firmware') and the site and group edit screens ('Files', 'Firmwares').
 */
export function UploadButtons({ target }: { target: UploadTarget }) {
  const { claims } = useSession();
  const writable = mayChangeFiles(claims?.subtype);
  const [open, setOpen] = useState<'files' | 'firmware' | null>(null);
  const plural = target.level !== 'entity';
  return (
    <>
      <Button variant="default" leftSection={<IconFiles size={16} aria-hidden />} onClick={() => setOpen('files')}>
        {plural ? 'Files' : 'File'}
      </Button>
      <Button variant="default" leftSection={<IconCpu size={16} aria-hidden />} onClick={() => setOpen('firmware')}>
        {plural ? 'Firmwares' : 'Firmware'}
      </Button>
      <FilesModal target={target} opened={open === 'files'} onClose={() => setOpen(null)} writable={writable} />
      <FirmwareModal target={target} opened={open === 'firmware'} onClose={() => setOpen(null)} writable={writable} />
    </>
  );
}
