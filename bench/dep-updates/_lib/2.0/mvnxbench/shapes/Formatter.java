package mvnxbench.shapes;

import java.util.Locale;

public final class Formatter {
  public static String format(Object value, Locale locale, String pattern) {
    return String.format(locale, pattern, value);
  }
}
