/** A `parse` for the API client from a type guard: the answer, typed, or an error naming what was expected. */
export function expectShape<T>(guard: (value: unknown) => value is T, what: string): (data: unknown) => T {
  return (data) => {
    if (!guard(data)) throw new Error(`Unexpected ${what} answer from the server`);
    return data;
  };
}
