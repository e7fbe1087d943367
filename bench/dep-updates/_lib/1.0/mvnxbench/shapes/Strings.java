package mvnxbench.shapes;

public final class Strings {
  private Strings() {}

  /**
   * The first argument that is not empty.
   *
   * @deprecated use {@link MoreStrings#firstNonEmpty(String, String)} instead
   */
  @Deprecated
  public static String firstNonEmpty(String first, String second) {
    return MoreStrings.firstNonEmpty(first, second);
  }

  public static boolean isBlank(String text) {
    return text == null || text.trim().isEmpty();
  }
}
