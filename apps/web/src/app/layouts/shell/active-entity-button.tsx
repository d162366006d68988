import { Button, Text } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useActingEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';

/** Shows the active entity (a superadmin's: the one it opened); opens its configuration screen (core §2). */
export function ActiveEntityButton() {
  const current = useSession();
  const navigate = useNavigate();
  const acting = useActingEntity();
  if (current.status !== 'signed-in') return null;
  const opened = isLandlord(current.claims) ? acting : null;
  const name = opened ?? current.account?._entity?.name ?? current.entity;
  return (
    <Button
      variant="default"
      radius="md"
      leftSection={<IconBuilding size={18} stroke={1.6} aria-hidden />}
      onClick={() => void navigate('/entity/config')}
      aria-label={`Active entity: ${name}. Open entity configuration`}
      title="Entity configuration"
      maw={{ base: 140, sm: 240 }}
      styles={{ label: { minWidth: 0 } }}
    >
      <Text span inherit truncate="end">
        {name}
      </Text>
    </Button>
  );
}
