package mvnxbench.shapes;

public final class Strings {
  private Strings() {}

  public static boolean isBlank(String text) {
    return text == null || text.trim().isEmpty();
  }
}
