import type { ReactElement } from "react";

/**
 * A catalog sentence with the names of Meta's own screens and settings marked `[[…]]` ("API
 * Setup", "Verify and save"): shown as Meta writes them, left to right and marked as data, so
 * the merchant finds the same words in Meta's dashboard.
 */
export function metaTerms(text: string): ReactElement {
  return (
    <>
      {text.split(/\[\[(.+?)\]\]/).map((part, i) =>
        i % 2 === 1 ? (
          <bdi key={i} translate="no">
            {part}
          </bdi>
        ) : (
          part
        ),
      )}
    </>
  );
}
