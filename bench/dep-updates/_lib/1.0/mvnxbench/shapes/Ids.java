package mvnxbench.shapes;

public final class Ids {
  public static String next(String prefix) {
    return prefix + "-1";
  }
}
