import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { exportDevices } from '../api/export-devices.ts';
import type { DeviceListState } from '../utils/list-query.ts';

/** Export CSV: the whole filtered, sorted list (every page), as the server streams it. */
export function ExportButton({ landlord, state }: { landlord: boolean; state: DeviceListState }) {
  const [exporting, setExporting] = useState(false);
  const download = () => {
    setExporting(true);
    exportDevices(landlord, state)
      .catch(notifyFailure)
      .finally(() => setExporting(false));
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={exporting}
      onClick={download}
    >
      Export CSV
    </Button>
  );
}
