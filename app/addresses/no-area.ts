import type { Doubts } from "./doubt";
import { type Evidence, governorateLabel, kindOf } from "./evidence";
import { type GazetteerGovernorate, governorateOf, governorateOfArea } from "./gazetteer";
import { type Mention, areaTargets } from "./mentions";

/*
 * An address with no area the matcher would name: which governorate it still shows, and why no
 * area, when the address holds a name that is not one.
 */

export function governorateWithoutArea(
  evidence: Evidence,
  provinceCode: string,
  reasons: string[],
): GazetteerGovernorate | null {
  const named = new Set<GazetteerGovernorate>();
  for (const umbrella of evidence.umbrellas) {
    for (const target of umbrella.targets) {
      if (target.kind !== "umbrella") continue;
      named.add(target.governorate);
      const areas = target.areas.map((a) => a.nameEn).join(", ");
      reasons.push(`"${umbrella.text}" covers ${areas}; which one is not said`);
    }
  }
  for (const { governorate } of evidence.governorates) named.add(governorate);
  if (named.size === 0) {
    const candidates = evidence.ambiguous.flatMap((m) => areaTargets(m.targets));
    const governorates = new Set(candidates.map(governorateOfArea));
    if (governorates.size === 1) for (const governorate of governorates) named.add(governorate);
  }
  if (evidence.ambiguous.length === 0 && evidence.umbrellas.length === 0) {
    reasons.push("no area name found");
  }
  const [only] = named;
  if (named.size === 1 && only !== undefined) {
    reasons.push(`governorate ${governorateLabel(only)} from the text`);
    return only;
  }
  const province = governorateOf(provinceCode);
  if (province !== undefined) {
    reasons.push(`governorate ${governorateLabel(province)} only from the province code`);
    return province;
  }
  return null;
}

// No area at all: say why when the address holds a name that is not one (a person's, Kuwait City
// as a whole); an address with no name at all needs no more than "not recognised".
export function noAreaDoubt(mentions: readonly Mention[], doubts: Doubts): void {
  const person = mentions.find((mention) => mention.person && kindOf(mention) !== "none");
  if (person !== undefined) doubts.note({ kind: "person_name", typed: person.text }, 0);
  const generic = mentions.find((mention) => kindOf(mention) === "generic");
  if (generic !== undefined) doubts.note({ kind: "only_generic", typed: generic.text }, 0);
}
