package mvnxbench.shapes;

public final class Ids {
  public static String next(String prefix, int width) {
    return prefix + "-" + String.format("%0" + width + "d", 1);
  }
}
