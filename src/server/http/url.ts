/** A URL path decoded, or as it is when it does not decode. */
export function decodeURIComponentSafe(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
