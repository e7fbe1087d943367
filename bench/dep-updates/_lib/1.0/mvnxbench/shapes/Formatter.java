package mvnxbench.shapes;

public final class Formatter {
  public static String format(String pattern, Object value) {
    return String.format(pattern, value);
  }
}
