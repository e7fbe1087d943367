package com.acme.money;

/** Amounts in cents, written and read as "12.50". */
public final class Money {
    private Money() {
    }

    public static String format(long cents) {
        return String.format("%d.%02d", cents / 100, Math.abs(cents % 100));
    }

    public static long parseCents(String text) {
        String[] parts = text.trim().split("\\.");
        long whole = Long.parseLong(parts[0]) * 100;
        return parts.length == 1 ? whole : whole + Long.parseLong(parts[1]);
    }
}
