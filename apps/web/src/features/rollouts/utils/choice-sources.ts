/** A list to choose from, as a select shows it. */
export interface Choices {
  data: ReadonlyArray<{ value: string; label: string }> | undefined;
  loading: boolean;
  failed: boolean;
}

/**
 * Where the create form's choices come from: other features' lists, composed by the route
 * (features do not import each other). Each is a hook, called only while its input shows.
 */
export interface ChoiceSources {
  /** The entity's firmware, `CC1 5.0.0` by id. */
  useFirmware(): Choices;
  useGroups(): Choices;
  useSites(): Choices;
  /** The saved views shared with the entity (only those can be a target). */
  useSharedViews(): Choices;
}
