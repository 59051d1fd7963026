import { isPartOf } from "./area-index";
import { CONFUSABLE, PARTNER_SPELLINGS, TWIN_GOVERNORATE, leftOutOf } from "./confusables";
import {
  type Evidence,
  baseScore,
  byStrength,
  classify,
  governorateLabel,
  howFound,
  isPlainWord,
  kindOf,
  label,
  mentionScore,
  strongContext,
  townContext,
} from "./evidence";
import {
  type GazetteerArea,
  type GazetteerGovernorate,
  governorateOf,
  governorateOfArea,
  parentOf,
} from "./gazetteer";
import { type Mention, areaTargets } from "./mentions";
import { type AddressDoubt, Doubts } from "./doubt";
import { governorateWithoutArea, noAreaDoubt } from "./no-area";
import { phraseWords } from "./phrase-keys";

/*
 * Weighing the names found in an address. Confidence starts from how the best area name was
 * found (exact, spelling variant, typo; evidence.ts) and is lowered by everything that casts
 * doubt on it: a second area, a twin name pointing elsewhere, a governorate or province that
 * disagrees (more when it fits a confusable partner), an everyday word with nothing marking it as
 * the area.
 */

// Two different areas, or a name pointing elsewhere: never sent without asking.
const CONFLICT_CAP = 0.45;
// "North Salmiya": probably Salmiya, but the shopper meant some part the gazetteer does not know.
const DIRECTION_CAP = 0.6;
// "Salmi" with nothing to confirm it: Salmi, or Salmiya typed short.
const UNCONFIRMED_CAP = 0.6;
// The Shuwaikh health area, Sulaibiya farms, Mina Al-Ahmadi: places couriers list apart from the
// area they are named after, rarely delivered to; a wrong one costs more than the question.
const SUB_AREA_CAP = 0.6;
// "Jahra farms": some part of Jahra that the gazetteer does not list.
const QUALIFIER_CAP = 0.6;

export interface Decision {
  area: GazetteerArea | null;
  governorate: GazetteerGovernorate | null;
  confidence: number;
  /** Why it is not sure, when it is not: the doubt that lowered confidence most. */
  doubt: AddressDoubt | null;
}

interface Choice {
  readonly area: GazetteerArea;
  readonly mention: Mention;
  readonly confidence: number;
}

function chooseArea(evidence: Evidence, reasons: string[], doubts: Doubts): Choice | undefined {
  let best = evidence.primary.slice().sort(byStrength)[0];
  // "Ardiya" in the city field and "Ardiya crafts" or "Ardiya stores" in the address: the part,
  // not the whole.
  const part = evidence.primary.find((p) => best !== undefined && isPartOf(p.area, best.area));
  if (part !== undefined) best = part;
  if (best !== undefined) {
    reasons.push(`area ${label(best.area)} from ${howFound(best.mention)}`);
    if (isPlainWord(best.mention)) {
      reasons.push(
        `"${best.mention.text}" is also an everyday word; nothing around it marks it as the area`,
      );
      doubts.note(
        { kind: "everyday_word", area: best.area.nameEn, typed: best.mention.text },
        mentionScore(best.mention),
      );
    }
    return { area: best.area, mention: best.mention, confidence: mentionScore(best.mention) };
  }
  // A mention followed by a block ("Ahmadi block 5") is the town; a bare one in the city field is
  // only strong because it fills the field, and may be the governorate.
  const twin = evidence.twins
    .slice()
    .sort(
      (a, b) =>
        Number(townContext(b)) - Number(townContext(a)) ||
        Number(strongContext(b)) - Number(strongContext(a)),
    )[0];
  const twinArea = twin === undefined ? undefined : areaTargets(twin.targets)[0];
  if (twin !== undefined && twinArea !== undefined) {
    // "Hawalli, Block 4" is the town; "Hawalli" alone may be the governorate.
    if (townContext(twin)) {
      reasons.push(
        `area ${label(twinArea)} from ${howFound(twin)}, followed by a block number, so the town rather than the governorate`,
      );
      return { area: twinArea, mention: twin, confidence: 0.9 * baseScore(twin) };
    }
    const governorate = governorateOfArea(twinArea).nameEn;
    reasons.push(
      `"${twin.text}" names both the ${twinArea.nameEn} area and the ${governorate} governorate; the area is a guess`,
    );
    doubts.note({ kind: "town_or_governorate", area: twinArea.nameEn, typed: twin.text }, 0.6);
    return { area: twinArea, mention: twin, confidence: 0.6 };
  }
  if (evidence.ambiguous.length > 0) {
    const candidates = [...new Set(evidence.ambiguous.flatMap((m) => areaTargets(m.targets)))];
    reasons.push(
      `"${evidence.ambiguous[0]?.text ?? ""}" could be ${candidates.map(label).join(" or ")}`,
    );
    doubts.note(
      {
        kind: "could_be",
        typed: evidence.ambiguous[0]?.text ?? "",
        areas: candidates.map((area) => area.nameEn),
      },
      0,
    );
    return undefined;
  }
  const landmark = evidence.secondary.slice().sort(byStrength)[0];
  if (landmark !== undefined) {
    const how = landmark.mention.inStreet
      ? "inside a street name"
      : landmark.mention.namesRegionalPlace
        ? "only in the name of a place named after it, which may be in another area"
        : "as a landmark";
    reasons.push(
      `only ${landmark.area.nameEn} appears, ${how} (${howFound(landmark.mention)}); the area is a guess`,
    );
    doubts.note(
      { kind: "only_landmark", area: landmark.area.nameEn, typed: landmark.mention.text },
      0.5,
    );
    return {
      area: landmark.area,
      mention: landmark.mention,
      confidence: 0.5 * mentionScore(landmark.mention),
    };
  }
  return undefined;
}

function crossCheck(choice: Choice, evidence: Evidence, reasons: string[], doubts: Doubts): number {
  const { area } = choice;
  const governorate = governorateOfArea(area);
  let confidence = choice.confidence;
  let cap = 1;
  const doubt = (factor: number, reason: string): void => {
    confidence *= factor;
    reasons.push(reason);
  };
  const conflict = (reason: string): void => {
    cap = Math.min(cap, CONFLICT_CAP);
    reasons.push(reason);
  };
  const parent = parentOf(area);
  const named = [...new Set(evidence.primary.map((p) => p.area))];
  const others = named.filter((other) => other !== area && !isPartOf(area, other));
  // The name may carry its kind of place in another field than the one chosen ("Shuwaikh" in the
  // city field, "Shuwaikh stores" in the address).
  const qualified = [choice.mention, ...evidence.primary.map((p) => p.mention), ...evidence.twins]
    .filter((mention) => areaTargets(mention.targets)[0] === area)
    .find((mention) => mention.qualifierNear !== null);

  const unclear = (typed: string, left: number): void =>
    doubts.note({ kind: "part_unclear", area: area.nameEn, typed }, left);
  if (choice.mention.directionNear !== null) {
    cap = Math.min(cap, DIRECTION_CAP);
    unclear(`${choice.mention.directionNear} ${choice.mention.text}`, DIRECTION_CAP);
    reasons.push(
      `the direction word "${choice.mention.directionNear}" next to ${area.nameEn} names no area the gazetteer knows: which part is meant is unclear`,
    );
  }
  if (qualified !== undefined) {
    cap = Math.min(cap, QUALIFIER_CAP);
    unclear(`${qualified.text} ${qualified.qualifierNear ?? ""}`.trim(), QUALIFIER_CAP);
    reasons.push(
      `"${qualified.qualifierNear ?? ""}" next to ${area.nameEn} names some part of it that the gazetteer does not list: which place is meant is unclear`,
    );
  }
  if (parent !== undefined) {
    cap = Math.min(cap, SUB_AREA_CAP);
    unclear(choice.mention.text, SUB_AREA_CAP);
    reasons.push(
      `${area.nameEn} is part of ${parent.nameEn}, and couriers list it apart: it is not sent without a confirmation`,
    );
  }
  if (choice.mention.directionLetter !== null) {
    cap = Math.min(cap, DIRECTION_CAP);
    unclear(`${choice.mention.directionLetter} ${choice.mention.text}`, DIRECTION_CAP);
    reasons.push(
      `"${choice.mention.directionLetter}" was read as a direction; one letter is too little to send the delivery to ${area.nameEn} rather than the area named after it`,
    );
  }
  for (const whole of named.filter((other) => isPartOf(area, other))) {
    reasons.push(`${whole.nameEn} is also named, which ${area.nameEn} is part of`);
  }
  const twoAreas = (other: readonly GazetteerArea[]): void =>
    doubts.note({ kind: "two_areas", areas: [area, ...other].map((a) => a.nameEn) }, CONFLICT_CAP);
  if (others.length > 0) {
    conflict(
      `the address also names ${others.map(label).join(", ")}: which one is meant is unclear`,
    );
    twoAreas(others);
  }
  for (const twin of evidence.twins) {
    if (twin === choice.mention) continue;
    const twinArea = areaTargets(twin.targets)[0];
    if (twinArea === undefined || (twinArea === area && !twin.alternative)) continue;
    const chosenIsTwin = kindOf(choice.mention) === "twin";
    if (TWIN_GOVERNORATE.get(twinArea) === governorate && !twin.alternative && !chosenIsTwin) {
      reasons.push(`"${twin.text}" read as the governorate, which agrees`);
    } else if (twinArea !== area) {
      conflict(`"${twin.text}" in ${twin.field} points elsewhere (${label(twinArea)})`);
      twoAreas([twinArea]);
    }
  }
  for (const word of evidence.plainWords) {
    if (word.area !== area)
      doubt(0.97, `"${word.mention.text}" read as an everyday word, not as ${word.area.nameEn}`);
  }
  for (const other of evidence.secondary) {
    if (other.area === area) continue;
    const how = other.mention.inStreet ? "in a street name" : "as a landmark";
    doubt(0.92, `${other.area.nameEn} also appears, ${how}`);
  }
  for (const mention of evidence.ambiguous) {
    const candidates = areaTargets(mention.targets);
    if (!candidates.includes(area)) {
      doubt(0.8, `"${mention.text}" could also mean ${candidates.map(label).join(" or ")}`);
    }
  }
  for (const umbrella of evidence.umbrellas) {
    const covers = umbrella.targets.some((t) => t.kind === "umbrella" && t.areas.includes(area));
    if (covers) reasons.push(`"${umbrella.text}" covers ${area.nameEn}, which agrees`);
    else {
      conflict(`"${umbrella.text}" does not cover ${area.nameEn}`);
      doubts.note({ kind: "part_unclear", area: area.nameEn, typed: umbrella.text }, CONFLICT_CAP);
    }
  }
  for (const { mention, governorate: named } of evidence.governorates) {
    if (named === governorate) reasons.push(`governorate "${mention.text}" agrees`);
    else {
      doubt(0.75, `"${mention.text}" names ${governorateLabel(named)}, but ${label(area)}`);
      doubts.note(
        { kind: "governorate_differs", area: area.nameEn, governorate: named.nameEn },
        0.75,
      );
    }
  }
  return Math.min(confidence, cap);
}

function checkProvince(
  area: GazetteerArea,
  typed: string,
  provinceCode: string,
  reasons: string[],
  doubts: Doubts,
): number {
  const governorate = governorateOfArea(area);
  if (provinceCode === "") {
    reasons.push("no province code to check against");
    return 0.97;
  }
  const province = governorateOf(provinceCode);
  if (province === undefined) {
    reasons.push(`province code "${provinceCode}" is not a Kuwaiti governorate; ignored`);
    return 0.97;
  }
  if (province === governorate) {
    reasons.push(`province ${province.code} agrees`);
    return 1;
  }
  if (area.uncertain) {
    reasons.push(
      `province ${province.code} disagrees, but sources differ on ${area.nameEn}'s governorate (the courier's list decides)`,
    );
    return 0.97;
  }
  const partner = (CONFUSABLE.get(area) ?? []).find(
    (other) => governorateOfArea(other) === province,
  );
  if (partner !== undefined) {
    reasons.push(
      `province ${province.code} disagrees and fits ${partner.nameEn}, which is easily confused with ${area.nameEn}`,
    );
    doubts.note({ kind: "could_be", typed, areas: [area.nameEn, partner.nameEn] }, 0.6);
    return 0.6;
  }
  // Shopify preselects a governorate and shoppers often leave it: a clear area name wins.
  reasons.push(
    `province ${province.code} (${province.nameEn}) disagrees; ${area.nameEn} is in ${governorate.nameEn}`,
  );
  doubts.note(
    { kind: "governorate_differs", area: area.nameEn, governorate: province.nameEn },
    0.88,
  );
  return 0.88;
}

// Notes, section 5: Salmi/Salmiya, Qasr/Qusour, Riqqa/Riggae… A name that could be its partner
// with letters left out is sent only when the province or a governorate name confirms it.
function checkConfusable(
  choice: Choice,
  evidence: Evidence,
  provinceCode: string,
  reasons: string[],
  doubts: Doubts,
): { cap: number; partner?: GazetteerArea } {
  const spellings = PARTNER_SPELLINGS.get(choice.area);
  if (spellings === undefined) return { cap: 1 };
  const governorate = governorateOfArea(choice.area);
  if (governorateOf(provinceCode) === governorate) return { cap: 1 };
  if (evidence.governorates.some((named) => named.governorate === governorate)) return { cap: 1 };
  // "Jahra" in the city field and "Qasr block 2" in the address: the twin names the governorate.
  const twinAgrees = evidence.twins.some((twin) => {
    const twinArea = areaTargets(twin.targets)[0];
    return (
      twin !== choice.mention &&
      twinArea !== undefined &&
      TWIN_GOVERNORATE.get(twinArea) === governorate
    );
  });
  if (twinAgrees) return { cap: 1 };
  const typed = phraseWords(choice.mention.text);
  const spelling = spellings.find((candidate) => leftOutOf(typed, candidate.words));
  if (spelling === undefined) return { cap: 1 };
  reasons.push(
    `"${choice.mention.text}" could be ${label(spelling.partner)} with letters left out, and neither the province nor a governorate name confirms ${label(choice.area)}`,
  );
  // Letters left out of one word ("Salmi" of Salmiya) make the partner a guess as good as the
  // name typed; a word left out ("Sulaibikhat" of a longer name) does not.
  const oneWord = typed.length === 1 && spelling.words.length === 1;
  doubts.note(
    {
      kind: "could_be",
      typed: choice.mention.text,
      areas: [choice.area.nameEn, spelling.partner.nameEn],
    },
    UNCONFIRMED_CAP,
  );
  return { cap: UNCONFIRMED_CAP, partner: oneWord ? spelling.partner : undefined };
}

export function decide(
  mentions: readonly Mention[],
  provinceCode: string,
  reasons: string[],
): Decision {
  const doubts = new Doubts();
  const evidence = classify(mentions, reasons);
  const choice = chooseArea(evidence, reasons, doubts);
  if (choice === undefined) {
    noAreaDoubt(mentions, doubts);
    return {
      area: null,
      governorate: governorateWithoutArea(evidence, provinceCode, reasons),
      confidence: 0,
      doubt: doubts.main,
    };
  }
  const checked = crossCheck(choice, evidence, reasons, doubts);
  const province = checkProvince(choice.area, choice.mention.text, provinceCode, reasons, doubts);
  const { cap, partner } = checkConfusable(choice, evidence, provinceCode, reasons, doubts);
  // "Salmi" with Hawalli's province: Salmiya typed short is the better guess (still asked).
  const area =
    partner !== undefined && governorateOf(provinceCode) === governorateOfArea(partner)
      ? partner
      : choice.area;
  if (area !== choice.area) {
    reasons.push(`the province fits ${label(area)}: the better guess`);
    const typed = choice.mention.text;
    doubts.note({ kind: "could_be", typed, areas: [area.nameEn, choice.area.nameEn] }, 0);
  }
  return {
    area,
    governorate: governorateOfArea(area),
    confidence: Math.min(checked * province, cap),
    doubt: doubts.main,
  };
}
