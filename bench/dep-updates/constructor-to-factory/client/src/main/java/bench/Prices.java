package bench;

import mvnxbench.shapes.Money;

public class Prices {
  public String ticket() {
    return new Money(1250, "EUR").show();
  }

  public Money fee() {
    return new Money(99, "EUR");
  }
}
