package bench;

import mvnxbench.shapes.Formatter;

public class Summary {
  public String total(long total) {
    return "total: " + Formatter.format("%d items", total);
  }
}
