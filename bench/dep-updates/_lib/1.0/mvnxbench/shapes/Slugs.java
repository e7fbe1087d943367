package mvnxbench.shapes;

import java.util.Locale;

public final class Slugs {
  /** A URL slug: lower case, words joined by '-'. */
  public static String slug(String title) {
    return title.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
  }
}
