/** An entity a landlord's form may choose (the device forms and the CSV import). */
export interface EntityChoice {
  name: string;
  description: string;
}
