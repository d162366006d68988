import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { PermanentToken } from '@fleet/shared/schemas/token';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { useGenerateToken } from '../api/generate-token.ts';
import { useTokens } from '../api/get-tokens.ts';
import { useRevokeToken } from '../api/revoke-token.ts';
import { tokenPaths, type TokenOwner, type TokenViewer } from '../api/token-paths.ts';
import { GeneratedToken } from './generated-token.tsx';
import { TokenTable } from './token-table.tsx';

interface PermanentTokenSectionProps {
  owner: TokenOwner;
  viewer: TokenViewer;
}

/** Permanent tokens of one account: generate (value shown once, with Copy), list, revoke. */
export function PermanentTokenSection({ owner, viewer }: PermanentTokenSectionProps) {
  const paths = tokenPaths(owner, viewer);
  const tokens = useTokens(paths.list);
  const generate = useGenerateToken(paths.generate);
  const revoke = useRevokeToken(paths.revoke);
  const confirmDelete = useConfirmDelete();
  const [description, setDescription] = useState('');
  const [generated, setGenerated] = useState<string | null>(null);

  const onGenerate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    generate.mutate(description, {
      onSuccess: (token) => {
        setGenerated(token.token);
        setDescription('');
      },
    });
  };

  const onRevoke = async (token: PermanentToken) => {
    if (await confirmDelete()) revoke.mutate(token.token_hash);
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={720} component="section" aria-labelledby="permanent-tokens-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="permanent-tokens-title">
            Permanent tokens
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            A permanent token lets a script call the API as this account. Its value is shown once, when it is generated.
          </Text>
        </div>
        <form onSubmit={onGenerate} noValidate>
          <Group gap="sm" align="flex-end" wrap="nowrap">
            <TextInput
              label="Description"
              placeholder="What the token is for"
              maxLength={200}
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={generate.isPending} leftSection={<IconPlus size={16} aria-hidden />}>
              Generate
            </Button>
          </Group>
        </form>
        {generated !== null && <GeneratedToken value={generated} onDismiss={() => setGenerated(null)} />}
        <TokenTable
          tokens={tokens.data}
          loading={tokens.isPending}
          failed={tokens.isError}
          onRetry={() => void tokens.refetch()}
          onRevoke={(token) => void onRevoke(token)}
          revoking={revoke.isPending ? (revoke.variables ?? null) : null}
        />
      </Stack>
    </Paper>
  );
}
