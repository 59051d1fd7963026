import { z } from "zod";
import type { AddressDoubt } from "../addresses";
import type { Sentence } from "./timeline";
import { type EventText, eventText } from "./timeline-text";

/**
 * Why the matcher was not sure of an address (app/addresses/doubt.ts), as stored with the
 * delivery's match and said on its timeline and on address review in the page's language: the
 * areas through the gazetteer, what the shopper typed quoted as data.
 */
const name = z.string();
export const addressDoubtSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("two_areas"), areas: z.array(name).min(2).readonly() }),
  z.object({ kind: z.literal("only_landmark"), area: name, typed: name }),
  z.object({ kind: z.literal("only_generic"), typed: name }),
  z.object({ kind: z.literal("person_name"), typed: name }),
  z.object({ kind: z.literal("could_be"), typed: name, areas: z.array(name).min(2).readonly() }),
  z.object({ kind: z.literal("town_or_governorate"), area: name, typed: name }),
  z.object({ kind: z.literal("part_unclear"), area: name, typed: name }),
  z.object({ kind: z.literal("governorate_differs"), area: name, governorate: name }),
  z.object({ kind: z.literal("everyday_word"), area: name, typed: name }),
]) satisfies z.ZodType<AddressDoubt>;

/** The timeline's sentence for a doubt (`timeline.text.area_doubt_<kind>`). */
export function doubtText(doubt: AddressDoubt): EventText {
  switch (doubt.kind) {
    case "two_areas": {
      const [area = "", other = ""] = doubt.areas;
      return eventText("area_doubt_two_areas", { area, other });
    }
    case "could_be": {
      const [area = "", other = ""] = doubt.areas;
      return eventText("area_doubt_could_be", { area, other, typed: doubt.typed });
    }
    case "only_generic":
    case "person_name":
      return eventText(`area_doubt_${doubt.kind}`, { typed: doubt.typed });
    case "governorate_differs":
      return eventText("area_doubt_governorate_differs", {
        area: doubt.area,
        governorate: doubt.governorate,
      });
    default:
      return eventText(`area_doubt_${doubt.kind}`, { area: doubt.area, typed: doubt.typed });
  }
}

/** The same sentence as a page shows it (the catalog key under `timeline.text`). */
export function doubtSentence(doubt: AddressDoubt): Sentence {
  const { key, params } = doubtText(doubt);
  return { key: `timeline.text.${key}`, params: { ...params } };
}
