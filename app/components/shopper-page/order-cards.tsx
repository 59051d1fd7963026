import { useTranslation } from "react-i18next";
import { Card } from "./card";
import { whatsappHref, type ShopperPageDisplay } from "./view";

/** The cash to have ready, large: the one number the shopper must not miss. */
export function CashCard({ cash }: { cash: string }) {
  const { t } = useTranslation("tracking");
  return (
    <Card className="sp-cash" label={t("cash.label")}>
      <p className="sp-cash-label">{t("cash.label")}</p>
      <p className="sp-cash-amount">
        <bdi>{cash}</bdi> <small>{t("cash.currency")}</small>
      </p>
      <p className="sp-soft">{t("cash.note")}</p>
    </Card>
  );
}

/** The parcel's journey, the step it is at marked, and the day it is expected. */
export function StepsCard({ page }: { page: ShopperPageDisplay }) {
  const { t } = useTranslation("tracking");
  if (page.steps.length === 0) return null;
  return (
    <Card label={t("stepsLabel")}>
      <h2>{t("stepsLabel")}</h2>
      {page.expectedDay && (
        <p className="sp-info">
          {t("expected")}: <b>{page.expectedDay}</b>
        </p>
      )}
      <ol className="sp-steps">
        {page.steps.map((step) => (
          <li
            key={step.step}
            className={step.now ? "now" : step.done ? undefined : "ahead"}
            aria-current={step.now ? "step" : undefined}
          >
            <span className="sp-step">{t(`step.${step.step}`)}</span>
            {step.done && step.when && <span className="sp-when">{step.when}</span>}
            {!step.done && <span className="sp-hidden">{t("notYet")}</span>}
          </li>
        ))}
      </ol>
    </Card>
  );
}

export function ItemsCard({ items }: { items: ShopperPageDisplay["items"] }) {
  const { t } = useTranslation("tracking");
  return (
    <Card label={t("items")}>
      <h2>{t("items")}</h2>
      <ul className="sp-items">
        {items.map((item, index) => (
          <li key={index}>
            <span className="sp-qty" dir="ltr">
              {item.quantity} ×
            </span>
            <bdi translate="no">{item.title}</bdi>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The shop's WhatsApp (click to chat, the order named) and phone. */
export function ContactCard({ page }: { page: ShopperPageDisplay }) {
  const { t } = useTranslation("tracking");
  const { whatsapp, phone, email } = page.contact;
  if (!whatsapp && !phone && !email) return null;
  return (
    <Card className="sp-contact-card">
      <p>{t("contact")}</p>
      <div className="sp-contact">
        {whatsapp && (
          <a
            className="sp-btn sp-wa"
            href={whatsappHref(
              whatsapp,
              page.orderName ? t("whatsappText", { order: page.orderName }) : null,
            )}
            rel="noopener noreferrer"
            target="_blank"
          >
            {t("whatsapp")}
          </a>
        )}
        {phone && (
          <a className="sp-btn sp-tel" href={phone.href}>
            {t("call")}{" "}
            <bdi dir="ltr" translate="no">
              {phone.text}
            </bdi>
          </a>
        )}
        {email && (
          <a className="sp-mail" href={`mailto:${email}`} translate="no">
            <bdi dir="ltr">{email}</bdi>
          </a>
        )}
      </div>
    </Card>
  );
}
