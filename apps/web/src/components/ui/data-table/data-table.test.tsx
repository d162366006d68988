// @vitest-environment happy-dom
import { Table } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { DataCard } from './data-cards.tsx';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { matchMediaAnswering } from '@/test/match-media.ts';

interface Fruit {
  name: string;
  colour: string;
}
const FRUITS: Fruit[] = [
  { name: 'apple', colour: 'red' },
  { name: 'lime', colour: 'green' },
];

/** A window narrower than the breakpoint: every media query matches. */
function narrowWindow() {
  vi.stubGlobal('matchMedia', matchMediaAnswering(true));
}

function renderTable(patch: Partial<DataTableProps<Fruit, 'name' | 'colour'>> = {}) {
  const props: DataTableProps<Fruit, 'name' | 'colour'> = {
    label: 'Fruits',
    columns: [{ header: 'Name', sort: 'name' }, { header: 'Colour', sort: 'colour' }, false, { header: 'Actions' }],
    items: FRUITS,
    row: (f) => (
      <Table.Tr key={f.name}>
        <Table.Td>{f.name}</Table.Td>
        <Table.Td>{f.colour}</Table.Td>
        <Table.Td>
          <button type="button">Eat {f.name}</button>
        </Table.Td>
      </Table.Tr>
    ),
    cards: {
      card: (f) => (
        <DataCard key={f.name} aria-label={`Fruit ${f.name}`}>
          {f.name} is {f.colour} <button type="button">Eat {f.name}</button>
        </DataCard>
      ),
    },
    loading: false,
    failed: false,
    errorTitle: 'The fruits could not be loaded.',
    onRetry: vi.fn(),
    empty: 'No fruit yet: fruit you buy appears here.',
    minWidth: 400,
    ...patch,
  };
  return { ...renderUi(<DataTable {...props} />), props };
}

describe('DataTable', () => {
  it('shows the headers and one row an item', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Colour', 'Actions']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(table.getAttribute('aria-busy')).toBe('false');
  });

  it('shows skeleton rows, marked busy, while the first answer is on its way', () => {
    renderTable({ items: undefined, loading: true, skeletonRows: 3, loadingText: 'Loading Fruits' });
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(table.querySelectorAll('tbody tr[aria-hidden]')).toHaveLength(3);
    expect(screen.getByText('Loading Fruits')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says what an empty list will show', () => {
    renderTable({ items: [] });
    expect(screen.getByText('No fruit yet: fruit you buy appears here.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the list failed and tries again when asked', async () => {
    const { user, props } = renderTable({ items: undefined, failed: true });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The fruits could not be loaded.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(props.onRetry).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('apple')).toBeNull();
  });

  it('sorts by a clicked header and marks the sorted column', async () => {
    const onSort = vi.fn();
    const { user } = renderTable({ sorting: { sort: 'colour', order: 'desc', onSort } });
    const colour = screen.getByRole('columnheader', { name: 'Colour' });
    expect(colour.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBeNull();
    await user.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it('selects every row of the page from the header', async () => {
    const onChange = vi.fn();
    const { user } = renderTable({
      selectAll: { label: 'Select all fruits', checked: false, indeterminate: true, onChange },
    });
    await user.click(screen.getByRole('checkbox', { name: 'Select all fruits' }));
    expect(onChange).toHaveBeenCalledWith(true);
  });

  describe('on a narrow screen', () => {
    it('shows each item as a card in a list, with no table', () => {
      narrowWindow();
      renderTable();
      expect(screen.queryByRole('table')).toBeNull();
      const list = screen.getByRole('list', { name: 'Fruits' });
      const cards = within(list).getAllByRole('listitem');
      expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Fruit apple', 'Fruit lime']);
      expect(within(cards[1]!).getByRole('button', { name: 'Eat lime' })).toBeTruthy();
    });

    it('keeps the loading, empty and error states, and Try again', async () => {
      narrowWindow();
      const { user, props, rerender } = renderTable({ items: undefined, failed: true });
      await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
      expect(props.onRetry).toHaveBeenCalledTimes(1);
      rerender(<DataTable {...props} items={[]} failed={false} />);
      expect(screen.getByText('No fruit yet: fruit you buy appears here.')).toBeTruthy();
      rerender(<DataTable {...props} items={undefined} failed={false} loading />);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(document.querySelector('[aria-busy="true"]')).not.toBeNull();
    });

    it('sorts with a "Sort by" choice and a button that reverses the order', async () => {
      narrowWindow();
      const onSort = vi.fn();
      const { user } = renderTable({ sorting: { sort: 'name', order: 'asc', onSort } });
      await user.selectOptions(screen.getByLabelText('Sort by'), 'Colour');
      expect(onSort).toHaveBeenLastCalledWith('colour');
      await user.click(screen.getByRole('button', { name: 'Ascending: sort descending' }));
      expect(onSort).toHaveBeenLastCalledWith('name');
    });

    it('shows the table when no card layout is given', () => {
      narrowWindow();
      renderTable({ cards: undefined });
      expect(screen.getByRole('table', { name: 'Fruits' })).toBeTruthy();
    });
  });
});
