package bench;

import mvnxbench.shapes.Rounding;

public class Invoice {
  public long total(double amount) {
    return Rounding.round(amount);
  }
}
