import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { areaSearchMatches, areaSearchRank } from "../../domain/area-search";
import { FieldError, useEnhanced } from "./form-parts";
import type { AreaOption, ShopperPageDisplay } from "./view";

type Choices = NonNullable<ShopperPageDisplay["choices"]>;

const SHOWN_MATCHES = 8;

/**
 * The area, as the courier has it: without JavaScript one list grouped by governorate; with it,
 * the governorate filters the list and a search box finds an area by any of its names.
 */
export function AreaField({
  choices,
  areaId: initialArea,
  error,
}: {
  choices: Choices;
  areaId: string;
  error: string | undefined;
}) {
  const { t, i18n } = useTranslation("tracking");
  const other = i18n.language === "ar" ? "en" : "ar";
  const enhanced = useEnhanced();
  const byId = useMemo(() => new Map(choices.areas.map((a) => [String(a.id), a])), [choices]);
  const governorateName = useMemo(
    () => new Map(choices.governorates.map((g) => [g.id, g.name])),
    [choices],
  );
  const [areaId, setAreaId] = useState(byId.has(initialArea) ? initialArea : "");
  const [governorate, setGovernorate] = useState(String(byId.get(initialArea)?.governanceId ?? ""));
  const [typed, setTyped] = useState("");
  // Filtering waits for the browser: the server's list is the whole one, grouped.
  const filtered = enhanced && governorate !== "";
  const shown = filtered
    ? choices.areas.filter((a) => String(a.governanceId) === governorate)
    : choices.areas;
  const matches = typed.trim()
    ? choices.areas
        .filter((a) => areaSearchMatches(a.search, typed))
        .map((a) => ({ a, rank: areaSearchRank(a.search, typed) }))
        .sort((x, y) => x.rank - y.rank)
        .slice(0, SHOWN_MATCHES)
        .map(({ a }) => a)
    : [];
  const choose = (area: AreaOption) => {
    setGovernorate(String(area.governanceId));
    setAreaId(String(area.id));
    setTyped("");
  };
  const option = (a: AreaOption) => (
    <option key={a.id} value={a.id}>
      {a.name}
    </option>
  );
  return (
    <>
      <div className="sp-field sp-js">
        <label htmlFor="fix-search">{t("address.search")}</label>
        <input
          className="sp-input"
          id="fix-search"
          type="search"
          value={typed}
          autoComplete="off"
          enterKeyHint="search"
          aria-describedby="fix-search-hint"
          aria-controls="fix-search-results"
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            // Enter picks the best match; it never sends the form half filled.
            if (event.key !== "Enter") return;
            event.preventDefault();
            if (matches[0]) choose(matches[0]);
          }}
        />
        <p className="sp-hint" id="fix-search-hint">
          {t("address.searchHint")}
        </p>
        <div id="fix-search-results" aria-live="polite">
          {typed.trim() !== "" &&
            (matches.length > 0 ? (
              <ul className="sp-results">
                {matches.map((a) => (
                  <li key={a.id}>
                    <button type="button" onClick={() => choose(a)}>
                      {a.name}
                      {a.otherName && <span lang={other}> · {a.otherName}</span>}{" "}
                      <small>— {governorateName.get(a.governanceId)}</small>
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="sp-err">{t("address.noMatch")}</p>
            ))}
        </div>
      </div>
      <div className="sp-form" data-enhanced={enhanced ? "" : undefined}>
        <div className="sp-field sp-js">
          <label htmlFor="fix-governorate">{t("address.governorate")}</label>
          <select
            className="sp-input"
            id="fix-governorate"
            value={governorate}
            onChange={(event) => {
              const next = event.target.value;
              setGovernorate(next);
              if (next && String(byId.get(areaId)?.governanceId) !== next) setAreaId("");
            }}
          >
            <option value="">{t("address.chooseGovernorate")}</option>
            {choices.governorates.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
        <div className={error ? "sp-field bad" : "sp-field"}>
          <label htmlFor="fix-area">{t("address.area")}</label>
          <select
            className="sp-input"
            id="fix-area"
            name="areaId"
            value={areaId}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "fix-area-error" : undefined}
            onChange={(event) => {
              const area = byId.get(event.target.value);
              setAreaId(event.target.value);
              if (area) setGovernorate(String(area.governanceId));
            }}
          >
            <option value="">{t("address.chooseArea")}</option>
            {filtered
              ? shown.map(option)
              : choices.governorates.map((g) => (
                  <optgroup key={g.id} label={g.name}>
                    {choices.areas.filter((a) => a.governanceId === g.id).map(option)}
                  </optgroup>
                ))}
          </select>
          <FieldError id="fix-area-error" code={error} />
        </div>
      </div>
    </>
  );
}
