package mvnxbench.shapes;

import java.util.Locale;

public final class Slugs {
  /**
   * A URL slug: words joined by '-', the letters' case kept.
   *
   * @deprecated keeps the case since 2.0; use {@link #lowerSlug(String)} for the 1.0 result
   */
  @Deprecated
  public static String slug(String title) {
    return title.trim().replaceAll("[^A-Za-z0-9]+", "-");
  }

  /** A URL slug in lower case (what slug gave in 1.0). */
  public static String lowerSlug(String title) {
    return slug(title).toLowerCase(Locale.ROOT);
  }
}
