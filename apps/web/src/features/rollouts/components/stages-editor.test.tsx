// @vitest-environment happy-dom
import { useState } from 'react';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { StagesEditor } from './stages-editor.tsx';

/** The editor with its state kept, as the form keeps it; `seen` holds every change. */
function Harness({ seen, sizes }: { seen: Array<{ canary: number; percents: number[] }>; sizes?: number[] }) {
  const [stages, setStages] = useState({ canary: 10, percents: [5, 25, 100] });
  return (
    <StagesEditor
      {...stages}
      sizes={sizes}
      onChange={(s) => {
        seen.push(s);
        setStages(s);
      }}
    />
  );
}

const stageInputs = () => screen.getAllByRole('textbox', { name: /^Stage \d/ }) as HTMLInputElement[];

describe('StagesEditor', () => {
  it('shows the canary, each cumulative stage with its dry-run size, and keeps the last at 100 %', () => {
    renderUi(<Harness seen={[]} sizes={[10, 0, 13, 57]} />);
    expect((screen.getByRole('textbox', { name: /Canary devices/ }) as HTMLInputElement).value).toBe('10');
    expect(stageInputs().map((i) => i.value)).toEqual(['5 %', '25 %', '100 %']);
    expect(stageInputs()[2]!.readOnly).toBe(true);
    expect(screen.getAllByTestId('stage-size').map((s) => s.textContent)).toEqual([
      '10 devices',
      '0 devices',
      '13 devices',
      '57 devices',
    ]);
    expect(screen.queryByRole('button', { name: 'Remove stage 100 %' })).toBeNull();
  });

  it('adds a stage before the last, halfway to 100 %, and removes one', async () => {
    const seen: Array<{ canary: number; percents: number[] }> = [];
    const { user } = renderUi(<Harness seen={seen} />);
    await user.click(screen.getByRole('button', { name: 'Add stage' }));
    expect(seen.at(-1)).toEqual({ canary: 10, percents: [5, 25, 63, 100] });
    expect(stageInputs().map((i) => i.value)).toEqual(['5 %', '25 %', '63 %', '100 %']);
    await user.click(screen.getByRole('button', { name: 'Remove stage 5 %' }));
    expect(seen.at(-1)).toEqual({ canary: 10, percents: [25, 63, 100] });
  });

  it('turns the canary off at 0, and the stages are numbered from 1 again', async () => {
    const seen: Array<{ canary: number; percents: number[] }> = [];
    const { user } = renderUi(<Harness seen={seen} />);
    const canary = screen.getByRole('textbox', { name: /Canary devices/ });
    await user.clear(canary);
    await user.type(canary, '0');
    expect(seen.at(-1)).toEqual({ canary: 0, percents: [5, 25, 100] });
    expect(screen.getByRole('textbox', { name: /^Stage 1 / })).toBeTruthy();
  });

  it('shows the API’s message for the stages', () => {
    renderUi(
      <StagesEditor canary={1} percents={[50, 40, 100]} onChange={() => {}} error="Stage percentages must increase" />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Stage percentages must increase');
  });
});
