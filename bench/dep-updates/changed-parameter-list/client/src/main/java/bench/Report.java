package bench;

import mvnxbench.shapes.Formatter;

public class Report {
  public String count(int count) {
    return Formatter.format("%d", count);
  }
}
