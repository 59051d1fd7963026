import { findArea, type GazetteerArea } from "./gazetteer";

/**
 * The gazetteer area a courier's area name stands for, as couriers write them: with "منطقة" or
 * "ضاحية" (suburb) before it or not, the article «ال» dropped or added, a final «ه» for «ة»
 * («جابريه» is «الجابرية», Jabriya). Undefined when none of these is a known name.
 */
export function findAreaAsCourierWrites(name: string): GazetteerArea | undefined {
  const bare = name.trim().replace(/^(منطقة|ضاحية)\s+/, "");
  const withTaMarbuta = bare.replace(/ه$/, "ة");
  const variants = [name, bare, withTaMarbuta, `ضاحية ${bare}`];
  for (const v of [bare, withTaMarbuta]) variants.push(v.startsWith("ال") ? v.slice(2) : `ال${v}`);
  for (const variant of variants) {
    const area = findArea(variant);
    if (area) return area;
  }
  return undefined;
}
