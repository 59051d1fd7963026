/*
 * The country calling codes of ITU-T E.164 assigned to countries and territories (its "List of
 * ITU-T Recommendation E.164 assigned country codes"), without the non-geographic ones (800, 808,
 * 870, 881-888, 979...) no customer's phone has. No code is the beginning of another, so the one
 * a number in international form starts with is found by its first one, two or three digits.
 */
export const COUNTRY_CALLING_CODES: readonly string[] = [
  // Zone 1: the North American Numbering Plan (United States, Canada, much of the Caribbean).
  "1",
  // Zone 2: Africa, Greenland, Faroe, Aruba.
  "20 211 212 213 216 218 220 221 222 223 224 225 226 227 228 229 230 231 232 233 234 235 236",
  "237 238 239 240 241 242 243 244 245 246 247 248 249 250 251 252 253 254 255 256 257 258 260",
  "261 262 263 264 265 266 267 268 269 27 290 291 297 298 299",
  // Zones 3 and 4: Europe.
  "30 31 32 33 34 350 351 352 353 354 355 356 357 358 359 36 370 371 372 373 374 375 376 377",
  "378 379 380 381 382 383 385 386 387 389 39",
  "40 41 420 421 423 43 44 45 46 47 48 49",
  // Zone 5: Central and South America.
  "500 501 502 503 504 505 506 507 508 509 51 52 53 54 55 56 57 58",
  "590 591 592 593 594 595 596 597 598 599",
  // Zone 6: South-East Asia and Oceania.
  "60 61 62 63 64 65 66 670 672 673 674 675 676 677 678 679 680 681 682 683 685 686 687 688 689",
  "690 691 692",
  // Zone 7: Russia and Kazakhstan.
  "7",
  // Zone 8: East Asia, Bangladesh.
  "81 82 84 850 852 853 855 856 86 880 886",
  // Zone 9: West, Central and South Asia, the Middle East (the GCC: 965 966 968 971 973 974).
  "90 91 92 93 94 95 960 961 962 963 964 965 966 967 968 970 971 972 973 974 975 976 977 98",
  "992 993 994 995 996 998",
]
  .join(" ")
  .split(" ");

const KNOWN: ReadonlySet<string> = new Set(COUNTRY_CALLING_CODES);

/** The country calling code (`+971`) these digits, written after `+` or `00`, begin with. */
export function callingCodePrefix(digits: string): string | null {
  for (let length = 3; length >= 1; length--) {
    const candidate = digits.slice(0, length);
    if (candidate.length === length && KNOWN.has(candidate)) return `+${candidate}`;
  }
  return null;
}
