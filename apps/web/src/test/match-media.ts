/** A `matchMedia` whose every query answers `matches`: false is a wide window, true a phone (Mantine's useMediaQuery reads it; happy-dom has none). */
export function matchMediaAnswering(matches: boolean): (query: string) => MediaQueryList {
  return (media) =>
    ({
      matches,
      media,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
