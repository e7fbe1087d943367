package bench;

import mvnxbench.shapes.Clock;

public class Timer {
  private final Clock clock = new Clock();

  public long elapsedSince(long start) {
    return clock.currentMillis() - start;
  }
}
