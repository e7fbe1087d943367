package bench;

import com.google.common.base.Stopwatch;

public class Timing {
  public Stopwatch fresh() {
    return new Stopwatch();
  }
}
