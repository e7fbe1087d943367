package mvnxbench.shapes;

public final class MoreStrings {
  private MoreStrings() {}

  public static String firstNonEmpty(String first, String second) {
    return first != null && !first.isEmpty() ? first : second;
  }
}
