package mvnxbench.shapes;

public final class Parser {
  public static int parse(String text) {
    return Integer.parseInt(text.trim());
  }

  public static int parse(String text, int radix) {
    return Integer.parseInt(text.trim(), radix);
  }
}
