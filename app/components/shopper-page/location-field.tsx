import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "./form-parts";

/** "Use my location": the phone's position in two hidden fields, for the driver. */
export function LocationField({
  latitude,
  longitude,
  error,
}: {
  latitude: string;
  longitude: string;
  error: string | undefined;
}) {
  const { t } = useTranslation("tracking");
  const [place, setPlace] = useState({ latitude, longitude });
  const [status, setStatus] = useState<"idle" | "locating" | "done" | "failed">(
    latitude ? "done" : "idle",
  );
  const locate = () => {
    if (!("geolocation" in navigator)) return setStatus("failed");
    setStatus("locating");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setPlace({
          latitude: position.coords.latitude.toFixed(6),
          longitude: position.coords.longitude.toFixed(6),
        });
        setStatus("done");
      },
      () => setStatus("failed"),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  };
  const said = {
    idle: t("address.locationHint"),
    locating: t("address.locating"),
    done: t("address.located"),
    failed: t("address.locationFailed"),
  }[status];
  return (
    <div className={error ? "sp-field bad" : "sp-field"}>
      <input type="hidden" name="latitude" value={place.latitude} />
      <input type="hidden" name="longitude" value={place.longitude} />
      <div className="sp-js" id="fix-location">
        <button
          className="sp-btn sp-btn-quiet"
          type="button"
          onClick={locate}
          disabled={status === "locating"}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z"
            />
          </svg>
          {t("address.location")}
        </button>
        <p className={status === "done" ? "sp-hint sp-done" : "sp-hint"} aria-live="polite">
          {said}
        </p>
      </div>
      <FieldError id="fix-location-error" code={error} />
    </div>
  );
}
