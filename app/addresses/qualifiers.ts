import { tokenize, type Token } from "./tokens";

/** Kinds of place that couriers list apart from the area they are named after. */
export type Qualifier =
  | "farms"
  | "stores"
  | "medical"
  | "port"
  | "industrial"
  | "camps"
  | "government"
  | "educational"
  | "refinery"
  | "chalets";

// Words that name such a place next to an area name: "Sulaibiya farms", «مخازن العارضية», "Mina
// Doha", "Ahmadi port", "Shuwaikh health area", "Ardiya crafts".
// prettier-ignore
const QUALIFIER_WORDS: Record<Qualifier, readonly string[]> = {
  farms: ["farm", "farms", "agricultural", "agriculture", "agri", "mazare3", "mazari", "mazra3a", "مزارع", "مزرعة", "زراعية", "زراعي"],
  stores: ["stores", "store", "storage", "storages", "warehouse", "warehouses", "makhazen", "مخازن", "مخزن", "مستودعات", "مستودع"],
  medical: ["medical", "health", "sanitary", "صحية", "طبية"],
  port: ["port", "harbour", "harbor", "mina", "minaa", "ميناء", "مينا"],
  industrial: ["industrial", "industry", "ind", "crafts", "craft", "herafiya", "hirafiya", "herafia", "sinaiya", "صناعية", "حرفية", "صناعي", "حرفي"],
  camps: ["camps", "camp", "معسكرات", "معسكر"],
  government: ["government", "governmental", "حكومي", "حكومية"],
  educational: ["educational", "education", "تعليمية"],
  refinery: ["refinery", "مصفاة"],
  chalets: ["chalets", "chalet", "shalehat", "شاليهات", "شاليه"],
};

const qualifierBySkeleton = new Map<string, Qualifier>();
for (const [qualifier, words] of Object.entries(QUALIFIER_WORDS) as [Qualifier, string[]][]) {
  for (const word of words) {
    const token = tokenize(word)[0];
    if (token !== undefined) qualifierBySkeleton.set(token.skel, qualifier);
  }
}

/** The kind of place a word names next to an area name ("farms", «مخازن»), if any. */
export function qualifierOf(token: Token): Qualifier | undefined {
  if (token.kind !== "word" || token.article) return undefined;
  return qualifierBySkeleton.get(token.skel);
}
