package mvnxbench.shapes.text;

public final class TextUtils {
  private TextUtils() {}

  public static String shout(String text) {
    return text.toUpperCase() + "!";
  }
}
