import { describe, expect, it } from 'vitest';
import { devicePathProblem, fileProblem } from './check-upload.ts';

const file = (size: number) => new File([new Uint8Array(size)], 'a.bin');

describe('upload checks', () => {
  it('refuses a missing, empty or oversize file with the spec message', () => {
    expect(fileProblem(null, 10)).toBe('Choose a file');
    expect(fileProblem(file(0), 10)).toBe('The file is empty');
    expect(fileProblem(file(11), 10)).toBe('File is too big. Only files up to 10 Bytes are allowed.');
    expect(fileProblem(file(10), 10)).toBeNull();
  });

  it('accepts relative device paths only', () => {
    expect(devicePathProblem('')).toBeNull();
    expect(devicePathProblem('config/app.json')).toBeNull();
    for (const bad of ['/etc/x', '../x', 'a/../b', 'a//b', 'a\\b', 'a b'])
      expect(devicePathProblem(bad)).toBe('Invalid device path format');
  });
});
