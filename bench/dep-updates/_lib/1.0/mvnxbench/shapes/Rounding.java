package mvnxbench.shapes;

public final class Rounding {
  /** Half up: 2.5 -> 3. */
  public static long round(double value) {
    return (long) Math.floor(value + 0.5);
  }
}
