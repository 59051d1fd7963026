import { callingCodePrefix } from "./calling-codes";

/** The country code the courier's contacts have unless told otherwise. */
export const KUWAIT_COUNTRY_CODE = "+965";

/** A phone number split as the courier wants it, or why it cannot be. */
export type PhoneNormalization =
  { ok: true; contactCountryCode: string; contactPhone: string } | { ok: false; message: string };

const ARABIC_INDIC_ZERO = 0x0660;
const PERSIAN_ZERO = 0x06f0;
const FULLWIDTH_ZERO = 0xff10;

/** Arabic-Indic (٠-٩), Persian (۰-۹) and full-width digits as ASCII digits. */
export function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (d) => {
    const code = d.charCodeAt(0);
    const zero =
      code >= FULLWIDTH_ZERO
        ? FULLWIDTH_ZERO
        : code >= PERSIAN_ZERO
          ? PERSIAN_ZERO
          : ARABIC_INDIC_ZERO;
    return String(code - zero);
  });
}

// Spaces of every kind, bidi marks (pasted along with Arabic text), dashes, dots and brackets.
const SEPARATORS =
  /[\s\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\-\u2010-\u2015\u2212\ufe63\uff0d.()[\]]/g;

/** `+965`, `965` or `00965` as `+965`; null when it is not a country calling code. */
export function normalizeCountryCode(raw: string): string | null {
  const text = asciiDigits(raw).replace(SEPARATORS, "");
  const match = /^(?:\+|00)?([1-9]\d{0,3})$/.exec(text);
  return match ? `+${match[1]}` : null;
}

/*
 * Where the 0 after the country code is part of the number and dialled from abroad too (Italy
 * and San Marino since 1998, Côte d'Ivoire since 2021, Congo, Gabon, Benin). Elsewhere a leading
 * 0 is the national trunk prefix, written "(0)" in international form and never dialled after
 * the country code.
 */
const LEADING_ZERO_DIALLED = new Set(["+39", "+378", "+225", "+242", "+241", "+229"]);

const shown = (raw: string) => {
  const trimmed = raw.trim();
  return `“${trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed}”`;
};

/**
 * Turns a phone number as people type it into the courier's form: the country code with a plus
 * sign, and the rest as digits only. Accepts `+965`, `00965` and (for 11 digits) `965` prefixes,
 * spaces, dashes, dots, brackets and Arabic-Indic or Persian digits. With the Kuwaiti country code
 * (the default) the rest must be a Kuwaiti number: 8 digits starting with 2, 4, 5, 6 or 9. With
 * another, a national trunk 0 (`050…`, `+44 (0)20…`) is dropped, except where the 0 is dialled
 * from abroad (Italy).
 */
export function normalizeContactPhone(
  raw: string,
  contactCountryCode: string = KUWAIT_COUNTRY_CODE,
): PhoneNormalization {
  const countryCode = normalizeCountryCode(contactCountryCode);
  if (!countryCode) {
    return {
      ok: false,
      message: `${shown(contactCountryCode)} is not a country calling code; write it like +965`,
    };
  }
  const ccDigits = countryCode.slice(1);
  const text = asciiDigits(raw).replace(SEPARATORS, "");
  if (text === "") return { ok: false, message: "the phone number is empty" };
  if (!/^\+?\d+$/.test(text)) {
    return {
      ok: false,
      message: `${shown(raw)} contains characters that are not part of a phone number`,
    };
  }

  const international = text.startsWith("+")
    ? text.slice(1)
    : text.startsWith("00")
      ? text.slice(2)
      : null;
  let local: string;
  if (international !== null) {
    if (!international.startsWith(ccDigits)) {
      return {
        ok: false,
        message: `${shown(raw)} is a number of another country than ${countryCode}; set the contact's country code to match it`,
      };
    }
    local = international.slice(ccDigits.length);
  } else if (countryCode === KUWAIT_COUNTRY_CODE && text.length === 11 && text.startsWith("965")) {
    // Written without the plus sign. Only at this length: 965xxxxx is itself a valid local number.
    local = text.slice(3);
  } else {
    local = text;
  }

  if (LEADING_ZERO_DIALLED.has(countryCode) && local.startsWith("00")) {
    // Its 0 is dialled, but no number starts 00 after the country code: written alone, 00… would
    // read as an international prefix.
    return {
      ok: false,
      message: `${shown(raw)} is not a phone number of ${countryCode}: after the country code it starts with 00`,
    };
  }
  if (countryCode !== KUWAIT_COUNTRY_CODE && !LEADING_ZERO_DIALLED.has(countryCode)) {
    // One trunk 0 (050..., or +44 (0)20... once the brackets are gone); a second is no number.
    if (local.startsWith("0")) local = local.slice(1);
    if (local.startsWith("0")) {
      return {
        ok: false,
        message: `${shown(raw)} is not a phone number of ${countryCode}: after the country code and its trunk 0, it still starts with 0`,
      };
    }
  }

  if (countryCode === KUWAIT_COUNTRY_CODE) {
    if (local.length !== 8) {
      return {
        ok: false,
        message: `${shown(raw)} is not a Kuwaiti phone number: those have 8 digits after +965, this has ${local.length}`,
      };
    }
    if (!/^[24569]/.test(local)) {
      return {
        ok: false,
        message: `${shown(raw)} is not a Kuwaiti phone number: those start with 2, 4, 5, 6 or 9`,
      };
    }
  } else if (local.length < 4 || ccDigits.length + local.length > 15) {
    // E.164 allows at most 15 digits with the country code.
    return {
      ok: false,
      message: `${shown(raw)} is too ${local.length < 4 ? "short" : "long"} for a phone number`,
    };
  }
  return { ok: true, contactCountryCode: countryCode, contactPhone: local };
}

/**
 * For a contact whose country code is not given: a number in international form (`+971…`,
 * `00966…`) carries its own, found in the ITU's list of country calling codes; any other number is
 * read as Kuwaiti, as `normalizeContactPhone` reads it by default.
 */
export function normalizeContactPhoneAnyCountry(raw: string): PhoneNormalization {
  const text = asciiDigits(raw).replace(SEPARATORS, "");
  const international = /^(?:\+|00)(\d+)$/.exec(text)?.[1];
  if (international === undefined) return normalizeContactPhone(raw, KUWAIT_COUNTRY_CODE);
  const countryCode = callingCodePrefix(international);
  if (!countryCode) {
    return {
      ok: false,
      message: `${shown(raw)} starts with no country calling code; check the number, or give the contact's country code`,
    };
  }
  return normalizeContactPhone(raw, countryCode);
}
