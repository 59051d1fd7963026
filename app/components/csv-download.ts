import { useCallback, useState } from "react";

/**
 * Downloads one of the app's CSV exports. A fetch, not a link: App Bridge adds the session token
 * to the app's own fetches, which a plain link inside the admin's frame would not carry.
 */
export function useCsvDownload(): {
  download: (url: string, fileName: string) => Promise<boolean>;
  busy: boolean;
} {
  const [busy, setBusy] = useState(false);
  const download = useCallback(async (url: string, fileName: string) => {
    setBusy(true);
    try {
      const response = await fetch(url);
      if (!response.ok) return false;
      const objectUrl = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = objectUrl;
      link.download = fileName;
      link.click();
      // Revoked once the browser has started the download.
      setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { download, busy };
}
