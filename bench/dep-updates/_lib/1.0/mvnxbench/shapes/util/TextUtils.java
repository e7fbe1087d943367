package mvnxbench.shapes.util;

public final class TextUtils {
  private TextUtils() {}

  public static String shout(String text) {
    return text.toUpperCase() + "!";
  }
}
