import ReactGridLayout, { getCompactor, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { DATAVIEW_GRID } from '@fleet/shared/constants';
import type { DataviewItem } from '@fleet/shared/schemas/dataview';
import { BuilderItem } from './builder-item.tsx';
import type { KeyAction } from './builder-layout.ts';
import classes from './builder.module.css';

const MARGIN = 10;
const HEIGHT = DATAVIEW_GRID.maxRows * DATAVIEW_GRID.rowHeight + (DATAVIEW_GRID.maxRows + 1) * MARGIN;
// Items stay where they are put: no compaction, and a drop onto another item snaps back.
const COMPACTOR = getCompactor(null, false, true);

interface BuilderGridProps {
  items: DataviewItem[];
  editable: boolean;
  onLayout(layout: Layout): void;
  onTitle(id: string, title: string): void;
  onRemove(id: string): void;
  onNudge(id: string, key: KeyAction, resize: boolean): void;
}

/** The builder's grid (fleet §9): 3 columns, at most 4 rows of height 125; items drag and resize. */
export function BuilderGrid({ items, editable, onLayout, onTitle, onRemove, onNudge }: BuilderGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = items.map(({ i, x, y, w, h }) => ({
    i,
    x,
    y,
    w,
    h,
    maxW: DATAVIEW_GRID.cols,
    maxH: DATAVIEW_GRID.maxRows,
  }));
  return (
    <div ref={containerRef} className={classes.board} style={{ height: HEIGHT }} data-testid="builder-grid">
      <div className={classes.cells} aria-hidden>
        {Array.from({ length: DATAVIEW_GRID.cols * DATAVIEW_GRID.maxRows }, (_, n) => (
          <div key={n} className={classes.cell} />
        ))}
      </div>
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          autoSize={false}
          style={{ height: HEIGHT }}
          gridConfig={{
            cols: DATAVIEW_GRID.cols,
            rowHeight: DATAVIEW_GRID.rowHeight,
            maxRows: DATAVIEW_GRID.maxRows,
            margin: [MARGIN, MARGIN],
            containerPadding: [MARGIN, MARGIN],
          }}
          dragConfig={{ enabled: editable, bounded: true, cancel: '.no-drag' }}
          resizeConfig={{ enabled: editable, handles: ['se'] }}
          compactor={COMPACTOR}
          onDragStop={(l) => onLayout(l)}
          onResizeStop={(l) => onLayout(l)}
        >
          {items.map((item) => (
            <div key={item.i}>
              <BuilderItem
                item={item}
                editable={editable}
                onTitle={(t) => onTitle(item.i, t)}
                onRemove={() => onRemove(item.i)}
                onNudge={(key, resize) => onNudge(item.i, key, resize)}
              />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
