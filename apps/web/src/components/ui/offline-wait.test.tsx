// @vitest-environment happy-dom
import { Table } from '@mantine/core';
import { onlineManager } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { PageLoader } from './page-loader.tsx';
import { TableSkeletonRows } from './table-states.tsx';

afterEach(() => onlineManager.setOnline(true));

const table = (
  <Table>
    <Table.Tbody>
      <TableSkeletonRows columns={3} />
    </Table.Tbody>
  </Table>
);

describe('loaders while a read waits for the connection', () => {
  it('a screen says it loads when the connection returns, and spins again once online', () => {
    renderUi(<PageLoader />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    act(() => onlineManager.setOnline(false));
    expect(screen.getByText('Offline — This screen loads when the connection returns.')).toBeTruthy();
    act(() => onlineManager.setOnline(true));
    expect(screen.queryByText(/Offline/)).toBeNull();
  });

  it('a list shows one row saying so instead of placeholder rows', () => {
    onlineManager.setOnline(false);
    renderUi(table);
    expect(screen.getByText('Offline — This list loads when the connection returns.')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });
});
