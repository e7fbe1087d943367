package mvnxbench.shapes;

public final class Money {
  private final long cents;
  private final String currency;

  private Money(long cents, String currency) {
    this.cents = cents;
    this.currency = currency;
  }

  public static Money of(long cents, String currency) {
    return new Money(cents, currency);
  }

  public String show() {
    return cents / 100 + "." + String.format("%02d", cents % 100) + " " + currency;
  }
}
