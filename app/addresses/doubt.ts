/*
 * Why the matcher is not sure of an address, as data the pages put into the merchant's and the
 * shopper's words (delivery timeline, address review, the shopper's page). Areas are the
 * gazetteer's English names (pages name them in their language); `typed` is what the shopper
 * wrote, quoted as data.
 */
export type AddressDoubt =
  // "Salwa or Rumaithiya", an area in the city field and another in the address.
  | { readonly kind: "two_areas"; readonly areas: readonly string[] }
  // "Adan hospital", "Fahaheel expressway", "near Jahra co-op", "Mubarak Al-Kabeer Street" alone.
  | { readonly kind: "only_landmark"; readonly area: string; readonly typed: string }
  // "Kuwait City" or "Kuwait" and no area.
  | { readonly kind: "only_generic"; readonly typed: string }
  // "this is Rawda", «معك سلوى» and no area.
  | { readonly kind: "person_name"; readonly typed: string }
  // "Salmi" (Salmi, or Salmiya typed short), a name several areas share.
  | { readonly kind: "could_be"; readonly typed: string; readonly areas: readonly string[] }
  // "Hawalli" alone: the town or the governorate.
  | { readonly kind: "town_or_governorate"; readonly area: string; readonly typed: string }
  // "North Salmiya", "Jahra farms", a part of an area the courier lists apart.
  | { readonly kind: "part_unclear"; readonly area: string; readonly typed: string }
  // The governorate chosen or written is not the area's.
  | { readonly kind: "governorate_differs"; readonly area: string; readonly governorate: string }
  // "salon", «بعد الظهر»: an everyday word that is also an area's name, and nothing else.
  | { readonly kind: "everyday_word"; readonly area: string; readonly typed: string };

export type AddressDoubtKind = AddressDoubt["kind"];

/** Collects the doubts met while deciding; the one that lowered confidence most is kept. */
export class Doubts {
  private strongest: { doubt: AddressDoubt; left: number } | null = null;

  /** `left`: what the doubt leaves of the confidence (a cap or a factor), 0 to 1. */
  note(doubt: AddressDoubt, left: number): void {
    if (this.strongest === null || left < this.strongest.left) this.strongest = { doubt, left };
  }

  get main(): AddressDoubt | null {
    return this.strongest?.doubt ?? null;
  }
}
