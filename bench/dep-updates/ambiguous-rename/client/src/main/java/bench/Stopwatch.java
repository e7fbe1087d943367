package bench;

import mvnxbench.shapes.Clock;

public class Stopwatch {
  public long ticks(Clock clock) {
    return clock.nanoTicks();
  }
}
