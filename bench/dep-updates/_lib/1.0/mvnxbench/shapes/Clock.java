package mvnxbench.shapes;

public final class Clock {
  public long currentMillis() {
    return 42L;
  }

  public long nanoTicks() {
    return 7L;
  }
}
