package mvnxbench.shapes;

public final class Money {
  private final long cents;
  private final String currency;

  public Money(long cents, String currency) {
    this.cents = cents;
    this.currency = currency;
  }

  public String show() {
    return cents / 100 + "." + String.format("%02d", cents % 100) + " " + currency;
  }
}
