import type { DataviewWidget } from '@fleet/shared/constants';
import { IconChartLine, IconClick, IconGauge, IconLetterT, IconPhoto, type Icon } from '@tabler/icons-react';

/** The builder's palette: what each widget is called and drawn with. */
export const WIDGETS: Record<DataviewWidget, { label: string; Icon: Icon; hint: string }> = {
  text: { label: 'Text', Icon: IconLetterT, hint: 'A heading or a paragraph' },
  metric: { label: 'Metric', Icon: IconGauge, hint: 'One number with its unit' },
  chart: { label: 'Chart', Icon: IconChartLine, hint: 'Values over time' },
  image: { label: 'Image', Icon: IconPhoto, hint: 'A picture or a logo' },
  button: { label: 'Button', Icon: IconClick, hint: 'An action for the user' },
};
