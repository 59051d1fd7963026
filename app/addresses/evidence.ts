import { TWIN_GOVERNORATE } from "./confusables";
import { type GazetteerArea, type GazetteerGovernorate, governorateOfArea } from "./gazetteer";
import { type Mention, areaTargets } from "./mentions";
import type { FieldName } from "./tokens";

/*
 * What each name found says on its own: what kind of place it names, how strongly (how it was
 * found, what is around it), and in which pile of evidence it goes for the decision.
 */

const FIELD_WEIGHT: Record<FieldName, number> = { city: 4, address2: 3, address1: 2, zip: 1 };
// Below this length a one-letter typo often lands on another everyday word or given name.
const SHORT_KEY = 7;

export interface AreaMention {
  readonly mention: Mention;
  readonly area: GazetteerArea;
}

export interface Evidence {
  readonly primary: AreaMention[];
  readonly plainWords: AreaMention[];
  // As a landmark ("near …") or inside a street name.
  readonly secondary: AreaMention[];
  readonly twins: Mention[];
  readonly ambiguous: Mention[];
  readonly umbrellas: Mention[];
  readonly governorates: { mention: Mention; governorate: GazetteerGovernorate }[];
}

type MentionKind = "generic" | "umbrella" | "twin" | "governorate" | "area" | "ambiguous" | "none";

export function kindOf(mention: Mention): MentionKind {
  const areas = areaTargets(mention.targets);
  if (areas.length > 1) return "ambiguous";
  const area = areas[0];
  if (area !== undefined) {
    const twin = TWIN_GOVERNORATE.get(area);
    const namesTwin = mention.targets.some(
      (t) => t.kind === "governorate" && t.governorate === twin,
    );
    return twin !== undefined && namesTwin ? "twin" : "area";
  }
  if (mention.targets.some((t) => t.kind === "umbrella")) return "umbrella";
  if (mention.targets.some((t) => t.kind === "governorate")) return "governorate";
  if (mention.targets.some((t) => t.kind === "generic")) return "generic";
  return "none";
}

export function label(area: GazetteerArea): string {
  return `${area.nameEn} (${governorateOfArea(area).nameEn})`;
}

export function governorateLabel(governorate: GazetteerGovernorate): string {
  return `${governorate.nameEn} (${governorate.code})`;
}

export function baseScore(mention: Mention): number {
  if (mention.via === "exact") return 1;
  if (mention.via === "skeleton") return 0.95;
  if (mention.distance > 1) return 0.78;
  if (mention.length >= SHORT_KEY) return 0.88;
  // "Mangf" alone in the city field is a typo of Mangaf; "salon" inside a sentence is not Salwa.
  return mention.alone || mention.areaWordBefore ? 0.84 : 0.72;
}

export function strongContext(mention: Mention): boolean {
  return mention.blockAfter || mention.areaWordBefore || mention.alone;
}

export function townContext(mention: Mention): boolean {
  return mention.blockAfter || mention.areaWordBefore;
}

export function isPlainWord(mention: Mention): boolean {
  return mention.weak && !strongContext(mention);
}

export function mentionScore(mention: Mention): number {
  return baseScore(mention) * (isPlainWord(mention) ? 0.7 : 1);
}

export function howFound(mention: Mention): string {
  const where = `"${mention.text}" in ${mention.field}`;
  if (mention.via === "exact") return `${where} (known spelling)`;
  if (mention.via === "skeleton") return `${where} (spelling variant)`;
  const typos = `${mention.distance} typo${mention.distance === 1 ? "" : "s"}`;
  return `${where} (${typos} from a known spelling)`;
}

export function byStrength(a: AreaMention, b: AreaMention): number {
  return (
    mentionScore(b.mention) - mentionScore(a.mention) ||
    FIELD_WEIGHT[b.mention.field] - FIELD_WEIGHT[a.mention.field]
  );
}

export function classify(mentions: readonly Mention[], reasons: string[]): Evidence {
  const evidence: Evidence = {
    primary: [],
    plainWords: [],
    secondary: [],
    twins: [],
    ambiguous: [],
    umbrellas: [],
    governorates: [],
  };
  const placeNames: AreaMention[] = [];
  for (const mention of mentions) {
    const kind = kindOf(mention);
    const area = areaTargets(mention.targets)[0];
    if (kind === "generic") {
      reasons.push(`"${mention.text}" names the country or Kuwait City as a whole, not an area`);
    } else if (mention.person && kind !== "none") {
      reasons.push(`"${mention.text}" is read as a person's name here, not as a place`);
    } else if ((kind === "area" || kind === "twin") && area !== undefined) {
      // "near Jahra hospital", "Mubarak Al-Kabeer Street", "Adan hospital": a place or a street
      // named after the area, not the area.
      if (mention.landmark || mention.inStreet || mention.namesRegionalPlace)
        evidence.secondary.push({ mention, area });
      else if (mention.namesPlace) placeNames.push({ mention, area });
      else if (kind === "twin") evidence.twins.push(mention);
      else evidence.primary.push({ mention, area });
    } else if (kind === "ambiguous") {
      evidence.ambiguous.push(mention);
    } else if (kind === "umbrella") {
      evidence.umbrellas.push(mention);
    } else if (kind === "governorate") {
      for (const target of mention.targets) {
        if (target.kind === "governorate") {
          evidence.governorates.push({ mention, governorate: target.governorate });
        }
      }
    }
  }
  // "Adan hospital", "Qurain co-op": a place named after an area yields to an area named plainly.
  for (const place of placeNames) {
    if (evidence.primary.length > 0) evidence.secondary.push(place);
    else if (kindOf(place.mention) === "twin") evidence.twins.push(place.mention);
    else evidence.primary.push(place);
  }
  // An everyday word («بعد الظهر», "after noon") does not compete with a clear area name.
  if (evidence.primary.some((p) => !isPlainWord(p.mention))) {
    const plain = evidence.primary.filter((p) => isPlainWord(p.mention));
    evidence.plainWords.push(...plain);
    evidence.primary.splice(
      0,
      evidence.primary.length,
      ...evidence.primary.filter((p) => !plain.includes(p)),
    );
  }
  return evidence;
}
