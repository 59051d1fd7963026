import { findArea, findGovernorate } from "../addresses/gazetteer";
import { findAreaAsCourierWrites } from "../addresses/courier-spellings";
import type { Language } from "./config";

/**
 * A courier's governorate or area name (the courier writes them in Arabic, its own spelling) in
 * the page's language, through the gazetteer, which has both. A name the gazetteer does not
 * know is shown as the courier wrote it.
 */
export function areaName(courierName: string, language: Language): string {
  const area = findAreaAsCourierWrites(courierName);
  if (!area) return courierName;
  return language === "ar" ? area.nameAr : area.nameEn;
}

export function governorateName(courierName: string, language: Language): string {
  const governorate =
    findGovernorate(courierName) ?? findGovernorate(courierName.replace(/^محافظة\s+/, ""));
  if (!governorate) return courierName;
  return language === "ar" ? governorate.nameAr : governorate.nameEn;
}

/**
 * A customer's city as Shopify holds it ("السالمية", "Salmiya", "salmiya") in the page's
 * language when the gazetteer knows it; as the customer wrote it otherwise.
 */
export function cityName(city: string, language: Language): string {
  const area = findArea(city) ?? findAreaAsCourierWrites(city);
  if (!area) return city;
  return language === "ar" ? area.nameAr : area.nameEn;
}
