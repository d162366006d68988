import { Center, Loader } from '@mantine/core';

/** Centred spinner for lazy screens and the initial session check. */
export function PageLoader({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <Center mih={fullPage ? '100dvh' : 240} role="status" aria-label="Loading">
      <Loader size="md" type="dots" />
    </Center>
  );
}
