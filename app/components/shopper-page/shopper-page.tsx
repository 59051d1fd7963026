import { useTranslation } from "react-i18next";
import { directionOf, LANGUAGES, type Language } from "../../i18n/config";
import { AddressCard } from "./address-card";
import { Headline, ProblemCard } from "./headline";
import { CashCard, ContactCard, ItemsCard, StepsCard } from "./order-cards";
import { SHOPPER_PAGE_CSS, WITHOUT_SCRIPT_CSS } from "./styles";
import type { AnswerProblem, ShopperPageDisplay } from "./view";

/**
 * The shopper's page (issue 26): the question while the order waits for them, the tracking page
 * afterwards, one phone-first column in Arabic or English. Every part works without JavaScript:
 * the forms are plain posts, the fix form a <details>.
 */
export function ShopperPage({
  page,
  done,
  problem,
}: {
  page: ShopperPageDisplay;
  done: boolean;
  problem: AnswerProblem | undefined;
}) {
  const { t, i18n } = useTranslation("tracking");
  const language: Language = i18n.language === "ar" ? "ar" : "en";
  const other = LANGUAGES.find((l) => l !== language)!;
  const asking = page.question !== null && page.canChange;
  const addressFirst = asking || (done && page.answered !== null);
  const hasAddress = page.place !== null || page.phone !== null || page.canChange;
  const address = hasAddress ? <AddressCard page={page} problem={problem} /> : null;
  const steps = <StepsCard page={page} />;
  return (
    <div className="sp">
      {/* As markup, not a text child: React would escape the quotes in the font names, the
          browser would not unescape them, and hydration would find different text. */}
      <style dangerouslySetInnerHTML={{ __html: SHOPPER_PAGE_CSS }} />
      <noscript dangerouslySetInnerHTML={{ __html: `<style>${WITHOUT_SCRIPT_CSS}</style>` }} />
      <div className="sp-wrap">
        <header className="sp-top">
          <p className="sp-shop" translate={page.shopName ? "no" : undefined}>
            {page.shopName ?? t("yourParcel")}
          </p>
          <a className="sp-lang" href={`?lang=${other}`} lang={other} dir={directionOf(other)}>
            {t(`languageName.${other}`)}
          </a>
        </header>
        <main>
          {problem && <ProblemCard problem={problem} />}
          <Headline page={page} done={done} />
          {page.cash !== null && <CashCard cash={page.cash} />}
          {addressFirst ? address : steps}
          {addressFirst ? steps : address}
          {page.items.length > 0 && <ItemsCard items={page.items} />}
          <ContactCard page={page} />
        </main>
      </div>
    </div>
  );
}
