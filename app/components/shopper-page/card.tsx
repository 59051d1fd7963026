import type { ReactNode } from "react";

export function Card({
  className,
  label,
  children,
  id,
}: {
  className?: string;
  label?: string;
  children: ReactNode;
  id?: string;
}) {
  return (
    <section className={className ? `sp-card ${className}` : "sp-card"} aria-label={label} id={id}>
      {children}
    </section>
  );
}

/** A line of the address: its label and value (data, never translated). */
export function Row({ label, value, ltr }: { label: string; value: string; ltr?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <bdi dir={ltr ? "ltr" : undefined} translate="no">
          {value}
        </bdi>
      </dd>
    </>
  );
}
