package mvnxbench.shapes;

public final class Rounding {
  /** Half even (banker's rounding) since 2.0: 2.5 -> 2. */
  public static long round(double value) {
    return Math.round(Math.rint(value));
  }

  /** The 1.0 behaviour. */
  public static long roundHalfUp(double value) {
    return (long) Math.floor(value + 0.5);
  }
}
