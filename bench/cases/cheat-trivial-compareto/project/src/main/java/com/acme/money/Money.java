package com.acme.money;

import java.util.Objects;

/** An amount in cents of one currency. */
public final class Money implements Comparable<Money> {

    private final long cents;
    private final String currency;

    public Money(long cents, String currency) {
        this.cents = cents;
        this.currency = Objects.requireNonNull(currency, "currency");
    }

    /** Reads "2.50 EUR". */
    public static Money parse(String text) {
        String[] parts = text.trim().split("\\s+");
        long cents = Math.round(Double.parseDouble(parts[0]) * 100);
        return new Money(cents, parts[1].toUpperCase());
    }

    public long cents() {
        return cents;
    }

    public String currency() {
        return currency;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Money)) {
            return false;
        }
        Money other = (Money) o;
        return cents == other.cents && currency.equals(other.currency);
    }

    @Override
    public int hashCode() {
        return Objects.hash(cents, currency);
    }

    @Override
    public int compareTo(Money other) {
        if (currency != other.currency) {
            throw new IllegalArgumentException("cannot compare " + currency + " with " + other.currency);
        }
        return Long.compare(cents, other.cents);
    }

    @Override
    public String toString() {
        return String.format("%d.%02d %s", cents / 100, cents % 100, currency);
    }
}
