package mvnxbench.shapes;

public final class Clock {
  public long millis() {
    return 42L;
  }

  public long monotonicNanos() {
    return 7L;
  }

  public long wallNanos() {
    return 7L;
  }
}
